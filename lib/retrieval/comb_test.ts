import assert from "node:assert/strict";
import { combMnz } from "./comb_mnz.ts";
import { combSum } from "./comb_sum.ts";
import { RUN_A, RUN_B } from "./testdata/runs.ts";

Deno.test("combSum adds min-max normalised scores; ties by docid descending", () => {
  // A: d1 1, d2 0.5, d3 0; B(t): d3 1, d1 0.
  const t = combSum([RUN_A, RUN_B]).filter((r) => r.topicId === "t");
  assert.deepEqual(t.map((r) => [r.docId, r.score, r.rank]), [["d3", 1, 1], ["d1", 1, 2], [
    "d2",
    0.5,
    3,
  ]]);
});

Deno.test("combMnz multiplies by the number of runs retrieving the document", () => {
  const t = combMnz([RUN_A, RUN_B], { normalization: "none" }).filter((r) => r.topicId === "t");
  assert.deepEqual(t.map((r) => [r.docId, r.score]), [["d3", 22], ["d1", 16], ["d2", 2]]);
  const z = combSum([RUN_A], { normalization: "zscore" }).filter((r) => r.topicId === "t");
  assert.deepEqual(z.map((r) => Number(r.score.toFixed(4))), [1.2247, 0, -1.2247]);
  assert.equal(combMnz([RUN_A])[0].run, "combmnz");
});
