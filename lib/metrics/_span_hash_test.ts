import assert from "node:assert/strict";
import fc from "fast-check";
import { spanHash, SpanIndex } from "./_span_hash.ts";

/** Keys as one buffer with start and end offsets, from position `from` of the columns. */
function columns(keys: string[], from: number) {
  const enc = new TextEncoder();
  const parts = keys.map((k) => enc.encode(k));
  const start = new Int32Array(from + keys.length);
  const end = new Int32Array(from + keys.length);
  let pos = 3; // the keys do not start the buffer
  parts.forEach((p, i) => {
    start[from + i] = pos;
    end[from + i] = pos += p.length;
  });
  const bytes = new Uint8Array(pos);
  parts.forEach((p, i) => bytes.set(p, start[from + i]));
  const hashes = new Int32Array(from + keys.length);
  for (let i = from; i < from + keys.length; i++) hashes[i] = spanHash(bytes, start[i], end[i]);
  return { bytes, start, end, hashes };
}

Deno.test("a lazy SpanIndex finds the same repeats and keys as one built at once (property)", () => {
  // Few distinct keys make repeats likely; several lazy indexes are made before any is
  // searched, and searched in another order (they share the scratch space of the check).
  const key = fc.oneof(fc.constantFrom("a", "b", "é", "doc-1", ""), fc.string({ maxLength: 6 }));
  fc.assert(
    fc.property(
      fc.array(fc.array(key, { maxLength: 40 }), { minLength: 1, maxLength: 5 }),
      fc.nat({ max: 3 }),
      fc.array(fc.string({ maxLength: 6 }), { maxLength: 5 }),
      (lists, from, probes) => {
        const built = lists.map((keys) => {
          const c = columns(keys, from);
          const opts = { hashes: c.hashes, from, to: from + keys.length };
          return {
            keys,
            eager: new SpanIndex(c.bytes, c.start, c.end, opts),
            lazy: new SpanIndex(c.bytes, c.start, c.end, { ...opts, lazy: true }),
          };
        });
        for (const { keys, eager, lazy } of built.reverse()) {
          assert.deepEqual(lazy.duplicates, eager.duplicates);
          for (const k of [...keys, ...probes]) {
            const want = keys.indexOf(k); // the first occurrence, or -1
            assert.equal(eager.findString(k), want);
            assert.equal(lazy.findString(k), want);
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});
