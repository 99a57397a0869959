import assert from "node:assert/strict";
import { selectTopic } from "./select_topic.ts";

Deno.test("selectTopic: hand-checked greedy subset, grades and diversity qrels", () => {
  // tau 3. Round 1 scores: p0 1 + 0.1, p1 2 + 0.1, p2 1 + 0.1, p3 0 + 0.1 -> p1 (covers q1, q2).
  // Round 2 (q3 uncovered): p0 0 + 0.1 (rating 1 > 0), p1 0, p2 1 + 0.1, p3 0 -> p2.
  // Best kept ratings [4, 3, 4]: p0 [5, 0, 1] is not below on q1 -> 2; p3 [2, 2, 0] is -> 1.
  const s = selectTopic({
    topicId: "t",
    passageIds: ["t:0#0", "t:0#1", "t:1#2", "t:1#3"],
    ratings: [[5, 0, 1], [4, 3, 0], [0, 0, 4], [2, 2, 0]],
  });
  assert.deepEqual(s.answerable, [true, true, true]);
  assert.deepEqual(s.kept, ["t:0#1", "t:1#2"]);
  assert.equal(s.dropped, false);
  assert.deepEqual(s.qrels.map((q) => [q.docId, q.grade]), [["t:0#0", 2], ["t:0#1", 3], [
    "t:1#2",
    3,
  ], ["t:1#3", 1]]);
  assert.deepEqual(
    s.divQrels.filter((q) => q.grade === 1).map((q) => [q.subtopic, q.docId]),
    [["1", "t:0#0"], ["1", "t:0#1"], ["2", "t:0#1"], ["3", "t:1#2"]],
  );
  assert.equal(s.divQrels.length, 12); // every passage x every sub-question
});

Deno.test("selectTopic: ties go to the first passage; -1 counts as 0; unanswerable questions filtered", () => {
  const s = selectTopic({
    topicId: "t",
    passageIds: ["a", "b", "c"],
    ratings: [[3, 0, -1], [0, 3, 2], [3, 0, 1]],
  });
  // q3 has no rating >= 3 -> not answerable. Round 1: a 1.1, b 1.1, c 1.1 -> a. Round 2: b.
  assert.deepEqual(s.answerable, [true, true, false]);
  assert.deepEqual(s.kept, ["a", "b"]);
  // best kept [3, 3, 2]; c [3, 0, 1] is not strictly below on q1 -> 2
  assert.deepEqual(s.qrels.map((q) => q.grade), [3, 3, 2]);
});

Deno.test("selectTopic: a higher tau changes the answerable set; nothing kept drops the topic", () => {
  const m = { topicId: "t", passageIds: ["a", "b"], ratings: [[4, 2], [3, 3]] };
  assert.deepEqual(selectTopic(m, { tau: 4 }).kept, ["a"]);
  const dropped = selectTopic({ topicId: "t", passageIds: ["a"], ratings: [[2, 1]] });
  assert.deepEqual(dropped, {
    topicId: "t",
    answerable: [false, false],
    kept: [],
    qrels: [],
    divQrels: [],
    dropped: true,
  });
});
