import assert from "node:assert/strict";
import { DenseIndex } from "./dense_index.ts";
import { denseRun } from "./dense_run.ts";

const v = (...xs: number[]) => Float32Array.from(xs);

Deno.test("denseRun ranks by cosine, rank from 1, per query in order", () => {
  const index = DenseIndex.build(["d1", "d2", "d3"], [v(1, 0), v(0, 1), v(3, 4)]);
  const rows = denseRun(index, [
    { topicId: "t1", vector: v(1, 0) },
    { topicId: "t2", vector: v(0, 2) },
  ], { run: "x", k: 2 });
  // t1: cos(d1) = 1, cos(d3) = 0.6, cos(d2) = 0. t2: d2 = 1, d3 = 0.8.
  assert.deepEqual(rows.map((r) => [r.run, r.topicId, r.docId, r.rank]), [
    ["x", "t1", "d1", 1],
    ["x", "t1", "d3", 2],
    ["x", "t2", "d2", 1],
    ["x", "t2", "d3", 2],
  ]);
  assert.ok(Math.abs(rows[1].score - 0.6) < 1e-6);
  assert.ok(Math.abs(rows[3].score - 0.8) < 1e-6);
});

Deno.test("denseRun cuts ties at k by docid descending; k is checked", () => {
  const index = DenseIndex.build(["a", "c", "b"], [v(1, 0), v(1, 0), v(1, 0)]);
  // The index keeps insertion order for ties (a, c); trec_eval keeps c and b.
  assert.deepEqual(index.search(v(1, 0), 2).map((h) => h.docId), ["a", "c"]);
  const top2 = denseRun(index, [{ topicId: "t", vector: v(1, 0) }], { k: 2 });
  assert.deepEqual(top2.map((r) => [r.docId, r.rank, r.run]), [["c", 1, "dense"], [
    "b",
    2,
    "dense",
  ]]);
  assert.deepEqual(denseRun(index, [{ topicId: "t", vector: v(1, 0) }], { k: 0 }), []);
  assert.throws(() => denseRun(index, [], { k: -1 }), /depth k=-1/);
});
