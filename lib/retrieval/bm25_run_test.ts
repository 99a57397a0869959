import assert from "node:assert/strict";
import { Bm25Index } from "./bm25_index.ts";
import { bm25Run } from "./bm25_run.ts";

Deno.test("bm25Run ranks each query's matches and skips empty queries", () => {
  const index = Bm25Index.build([
    { id: "d1", text: "storm surge floods the harbour" },
    { id: "d2", text: "the council debates the budget" },
    { id: "d3", text: "storm warnings for the coast; storm shelters open" },
  ]);
  const rows = bm25Run(index, [
    { topicId: "t1", text: "storm" },
    { topicId: "t2", text: "" },
    { topicId: "t3", text: "budget" },
  ], { run: "x", k: 10 });
  // d3 has tf 2 for "storm" and outranks d1 (tf 1); d2 does not match.
  assert.deepEqual(rows.map((r) => [r.run, r.topicId, r.docId, r.rank]), [
    ["x", "t1", "d3", 1],
    ["x", "t1", "d1", 2],
    ["x", "t3", "d2", 1],
  ]);
  assert.ok(rows[0].score > rows[1].score);
});
