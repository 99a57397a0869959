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

Deno.test("bm25Run orders ties by docid descending and cuts the top k in that order", () => {
  const index = Bm25Index.build([
    { id: "a", text: "apple pie" },
    { id: "c", text: "apple pie" },
    { id: "b", text: "apple pie" },
  ]);
  // Lucene's top 2 are a and c (insertion order); trec_eval's are c and b.
  assert.deepEqual(index.search("apple pie", 2).map((h) => h.docId), ["a", "c"]);
  const top2 = bm25Run(index, [{ topicId: "t", text: "apple pie" }], { k: 2 });
  assert.deepEqual(top2.map((r) => [r.docId, r.rank]), [["c", 1], ["b", 2]]);
  assert.equal(top2[0].score, top2[1].score);
  assert.deepEqual(bm25Run(index, [{ topicId: "t", text: "apple" }], { k: 0 }), []);
  assert.throws(() => bm25Run(index, [], { k: 1.5 }), RangeError);
});

Deno.test("bm25Run finds tied documents far beyond the cutoff, above and below the tie", () => {
  // One best document, twelve tied ones (ids inserted in ascending order), lower ones after.
  const docs = [{ id: "m00", text: "apple apple pie" }];
  for (let i = 1; i <= 12; i++) {
    docs.push({ id: `t${String(i).padStart(2, "0")}`, text: "apple pie" });
  }
  docs.push({ id: "z", text: "apple pie with cream and custard" });
  const index = Bm25Index.build(docs);
  const rows = bm25Run(index, [{ topicId: "q", text: "apple" }], { k: 3 });
  assert.deepEqual(rows.map((r) => r.docId), ["m00", "t12", "t11"]);
  const all = bm25Run(index, [{ topicId: "q", text: "apple" }], { k: 20 });
  assert.equal(all.length, 14);
  assert.deepEqual(all.slice(0, 3).map((r) => r.docId), ["m00", "t12", "t11"]);
  assert.equal(all.at(-1)!.docId, "z");
  for (let i = 1; i < all.length; i++) {
    const [p, r] = [all[i - 1], all[i]];
    assert.ok(p.score > r.score || (p.score === r.score && p.docId > r.docId), `rank ${i + 1}`);
  }
});
