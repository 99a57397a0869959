import assert from "node:assert/strict";
import { rrf } from "./rrf.ts";
import { RUN_A, RUN_B } from "./testdata/runs.ts";

Deno.test("rrf sums 1/(k + rank) with ranks in trec_eval order", () => {
  const fused = rrf([RUN_A, RUN_B]);
  const t = fused.filter((r) => r.topicId === "t");
  assert.deepEqual(t.map((r) => [r.docId, r.rank]), [["d1", 1], ["d3", 2], ["d2", 3]]);
  assert.ok(Math.abs(t[0].score - (1 / 61 + 1 / 62)) < 1e-12);
  assert.ok(Math.abs(t[1].score - (1 / 63 + 1 / 61)) < 1e-12);
  assert.deepEqual(fused.filter((r) => r.topicId === "u").map((r) => [r.docId, r.score]), [[
    "d9",
    1 / 61,
  ]]);
  assert.equal(fused[0].run, "rrf");
});

Deno.test("rrf honours depth and k, and breaks ties by docid descending", () => {
  const fused = rrf([RUN_A, RUN_B], { k: 0, depth: 1, run: "x" });
  // Depth 1: d1 (1/1 from A) and d3 (1/1 from B) tie; d3 > d1 as strings.
  assert.deepEqual(fused.filter((r) => r.topicId === "t").map((r) => r.docId), ["d3", "d1"]);
  assert.equal(fused[0].run, "x");
});
