import assert from "node:assert/strict";
import { selectFromJudgments } from "./select_from_judgments.ts";

Deno.test("selectFromJudgments groups by topic in file order, ignores reports, drops empty topics", () => {
  const sel = selectFromJudgments([
    { topicId: "a", itemId: "a:0#0", ratings: [5, 0] },
    { topicId: "b", itemId: "b:0#0", ratings: [1, 2, 0] },
    { topicId: "a", itemId: "a:report", ratings: [5, 5] },
    { topicId: "a", itemId: "a:1#1", ratings: [0, 4] },
  ]);
  assert.deepEqual(sel.dropped, ["b"]);
  assert.deepEqual(sel.qrels, [
    { topicId: "a", docId: "a:0#0", grade: 3, subtopic: "0" },
    { topicId: "a", docId: "a:1#1", grade: 3, subtopic: "0" },
  ]);
  assert.deepEqual(sel.divQrels.map((q) => `${q.subtopic} ${q.docId} ${q.grade}`), [
    "1 a:0#0 1",
    "1 a:1#1 0",
    "2 a:0#0 0",
    "2 a:1#1 1",
  ]);
});

Deno.test("selectFromJudgments rejects rating lists of different lengths within a topic", () => {
  assert.throws(
    () =>
      selectFromJudgments([
        { topicId: "a", itemId: "a:0#0", ratings: [5, 0] },
        { topicId: "a", itemId: "a:0#1", ratings: [5] },
      ]),
    /passage "a:0#1" has 1 ratings but "a:0#0" has 2/,
  );
});
