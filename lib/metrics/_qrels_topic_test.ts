import assert from "node:assert/strict";
import fc from "fast-check";
import { QrelsTopic } from "./_qrels_topic.ts";

/** num_rel and the ideal DCG computed the plain way from a grade list. */
function reference(grades: number[], rel: number, k: number) {
  const sorted = grades.filter((g) => g >= 0).sort((a, b) => b - a);
  let dcg = 0;
  for (let i = 0; i < Math.min(k, sorted.length); i++) {
    if (sorted[i] > 0) dcg += sorted[i] / Math.log2(i + 2);
  }
  return { numRel: sorted.filter((g) => g >= rel).length, dcg };
}

Deno.test("QrelsTopic counts relevant documents and the ideal DCG as the plain sums do (property)", () => {
  // Integer grades (counted by value) and fractional or large ones (sorted), negative
  // grades (in the pool, unjudged) in both; topics built one after another share scratch space.
  const grade = fc.oneof(
    fc.integer({ min: -2, max: 4 }),
    fc.integer({ min: -1, max: 300 }),
    fc.double({ min: -1, max: 3, noNaN: true }),
  );
  fc.assert(
    fc.property(
      fc.array(fc.array(grade, { maxLength: 30 }), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 0, max: 5 }),
      fc.integer({ min: 1, max: 40 }),
      (topics, rel, k) => {
        for (const grades of topics) {
          const topic = QrelsTopic.of(grades.map((_, i) => `d${i}`), grades);
          const want = reference(grades, rel, k);
          assert.equal(topic.numRel(rel), want.numRel);
          assert.ok(Math.abs(topic.idealDcg(k) - want.dcg) <= 1e-9 * Math.max(1, want.dcg));
        }
      },
    ),
    { numRuns: 500 },
  );
});
