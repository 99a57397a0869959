import assert from "node:assert/strict";
import { Inverter } from "./_inverter.ts";

const TEXTS = [
  "storms hit the coast",
  "coast guard storm warning storm",
  "the warning came late",
  "late storms, late warnings",
  "guard the coast",
];

/** Segments of TEXTS cut every `every` documents, copied out as plain arrays. */
function segments(inverter: Inverter, every: number) {
  const out: { offsets: number[]; docs: number[]; tfs: number[] }[] = [];
  TEXTS.forEach((text, i) => {
    inverter.add(text);
    if ((i + 1) % every === 0 || i === TEXTS.length - 1) {
      const s = inverter.take();
      out.push({ offsets: [...s.offsets], docs: [...s.docs], tfs: [...s.tfs] });
    }
  });
  return out;
}

Deno.test("Inverter segments are the same with reused arrays and a soft limit", () => {
  const fresh = segments(new Inverter(), 2);
  const reused = segments(new Inverter({ segmentPostings: 3, reuse: true }), 2);
  assert.deepEqual(reused, fresh);
  // Hand-checked: terms storm 0, hit 1, coast 2, guard 3, warn 4, came 5, late 6.
  assert.deepEqual(fresh[0].docs, [0, 1, 0, 0, 1, 1, 1]);
  assert.deepEqual(fresh[0].tfs, [1, 2, 1, 1, 1, 1, 1]);
  assert.deepEqual(fresh[1].offsets, [0, 1, 1, 1, 1, 3, 4, 6]);
  assert.deepEqual(fresh[1].docs, [3, 2, 3, 2, 2, 3]);
  assert.deepEqual(fresh[1].tfs, [1, 1, 1, 1, 1, 2]);
  assert.deepEqual(fresh[2].docs, [4, 4]);
});

Deno.test("Inverter after releaseBuffers goes on with the same vocabulary and numbering", () => {
  const inverter = new Inverter({ segmentPostings: 4, reuse: true });
  inverter.add("storms hit the coast");
  const first = inverter.take();
  assert.deepEqual([...first.docs], [0, 0, 0]);
  inverter.releaseBuffers();
  inverter.add("the coast, the storm");
  const second = inverter.take();
  assert.deepEqual([...second.offsets], [0, 1, 1, 2]); // storm, hit, coast
  assert.deepEqual([...second.docs], [1, 1]);
  inverter.add("hit");
  assert.throws(() => inverter.releaseBuffers(), /pending postings/);
});
