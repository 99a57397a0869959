import assert from "node:assert/strict";
import { sampleContexts } from "./sample_contexts.ts";
import { seededRandom } from "@lib/metrics/mod.ts";

const ranking = Array.from({ length: 60 }, (_, i) => `d${String(i).padStart(2, "0")}`);

Deno.test("sampleContexts: hand-checked draw with a scripted random source", () => {
  // random 0 always swaps in the current slot: picks index 0, 1, 2 of the top 5.
  assert.deepEqual(sampleContexts(ranking, { random: () => 0, samples: 1, size: 3, depth: 5 }), [
    ["d00", "d01", "d02"],
  ]);
  // random 0.99 always swaps in the last slot: [4,1,2,3,0] -> [4,0,2,3,1] -> [4,0,1,3,2],
  // so the picks are 4, 0, 1, returned in rank order.
  assert.deepEqual(
    sampleContexts(ranking, { random: () => 0.99, samples: 1, size: 3, depth: 5 }),
    [["d00", "d01", "d04"]],
  );
});

Deno.test("sampleContexts: seeded draws are reproducible, distinct, in rank order, from the top depth", () => {
  const a = sampleContexts(ranking, { random: seededRandom(11) });
  const b = sampleContexts(ranking, { random: seededRandom(11) });
  assert.deepEqual(a, b);
  assert.equal(a.length, 16);
  for (const ctx of a) {
    assert.equal(ctx.length, 10);
    assert.equal(new Set(ctx).size, 10);
    assert.deepEqual(ctx, [...ctx].sort());
    assert.ok(ctx.every((id) => Number(id.slice(1)) < 50));
  }
  assert.notDeepEqual(a[0], a[1]);
  assert.notDeepEqual(sampleContexts(ranking, { random: seededRandom(12) }), a);
});

Deno.test("sampleContexts: a short ranking gives its whole top; bad sizes fail", () => {
  assert.deepEqual(sampleContexts(["x", "y"], { random: seededRandom(1), samples: 2 }), [
    ["x", "y"],
    ["x", "y"],
  ]);
  assert.throws(
    () => sampleContexts(ranking, { random: seededRandom(1), size: 0 }),
    /size is 0; give a positive integer/,
  );
});
