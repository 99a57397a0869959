import assert from "node:assert/strict";
import { requiredSubset } from "./required_subset.ts";
import type { ItemRatings } from "./judged.ts";

// Topic t, 3 sub-questions, tau 3. Passage order by j (the input is shuffled).
//   t:0#0 [3,0,0]  t:0#1 [4,4,0]  t:1#2 [0,1,5]  t:1#3 [2,3,4]  t:1#4 [1,2,2]  t:report [5,5,5]
// Round 1 scores: #0 1+0.1, #1 2+0.1, #2 1+0.1, #3 2+0.1, #4 0+0.1 -> #1 (first of the tied 2.1).
// Round 2 (q3 uncovered): #2 1.1, #3 1.1 -> #2 (first). All covered.
// Best kept per question: [4,4,5]. #0 [3,0,0] < [4,4,5] everywhere -> redundant (1);
// #3 [2,3,4] < [4,4,5] -> 1; #4 [1,2,2] -> 1.  Topic u answers nothing -> dropped.
const judgments: ItemRatings[] = [
  { topicId: "t", itemId: "t:1#3", ratings: [2, 3, 4] },
  { topicId: "t", itemId: "t:0#0", ratings: [3, 0, 0] },
  { topicId: "t", itemId: "t:0#1", ratings: [4, 4, 0] },
  { topicId: "t", itemId: "t:1#2", ratings: [0, 1, 5] },
  { topicId: "t", itemId: "t:1#4", ratings: [1, 2, -1] },
  { topicId: "t", itemId: "t:report", ratings: [5, 5, 5] },
  { topicId: "u", itemId: "u:0#0", ratings: [2, 1] },
];

Deno.test("requiredSubset follows the greedy rule, grades and tie order", () => {
  const r = requiredSubset(judgments);
  assert.deepEqual(r.required.get("t"), ["t:0#1", "t:1#2"]);
  assert.deepEqual(
    r.qrels.map((q) => [q.docId, q.grade]),
    [["t:0#0", 1], ["t:0#1", 3], ["t:1#2", 3], ["t:1#3", 1], ["t:1#4", 1]],
  );
  assert.deepEqual(r.dropped, ["u"]);
  assert.equal(r.unparseableRatings, 1);
  // Diversity qrels: every passage x sub-question, numbered from 1.
  assert.equal(r.diversityQrels.length, 15);
  assert.deepEqual(
    r.diversityQrels.filter((q) => q.docId === "t:1#3").map((q) => [q.subtopic, q.grade]),
    [["1", 0], ["2", 1], ["3", 1]],
  );
});

Deno.test("a passage matching the best kept rating somewhere is neutral (grade 2)", () => {
  // Round 1: a [5,0] 1 + 0.1, b [0,3] 1 + 0.1, c [5,1] 1 + 0.1, d [0,0] 0 -> a (first on ties).
  // Round 2 (q2 uncovered): b 1 + 0.1, c 0 + 0.1 (rating 1 > 0 on q2) -> b.
  // Best kept [5,3]: c equals it on q1 -> neutral (2); d is below everywhere -> redundant (1).
  const r = requiredSubset([
    { topicId: "x", itemId: "a", ratings: [5, 0] },
    { topicId: "x", itemId: "b", ratings: [0, 3] },
    { topicId: "x", itemId: "c", ratings: [5, 1] },
    { topicId: "x", itemId: "d", ratings: [0, 0] },
  ]);
  assert.deepEqual(r.required.get("x"), ["a", "b"]);
  assert.deepEqual(r.qrels.map((q) => [q.docId, q.grade]), [["a", 3], ["b", 3], ["c", 2], [
    "d",
    1,
  ]]);
});

Deno.test("requiredSubset respects tau", () => {
  const r = requiredSubset([{ topicId: "x", itemId: "a", ratings: [4] }], { tau: 5 });
  assert.deepEqual(r.dropped, ["x"]);
  assert.equal(r.qrels.length, 0);
});

Deno.test("redundancy compares every sub-question by default, answerable ones on request", () => {
  // q2 is unanswerable (no rating >= 3). v:0#0 [5,2], v:0#1 [4,2] -> keep #0; best kept [5,2].
  // Original rule (all sub-questions): on q2, 2 < 2 fails -> #1 is neutral (2).
  // Answerable-only rule: on q1, 4 < 5 -> #1 is redundant (1).
  const judgments = [
    { topicId: "v", itemId: "v:0#0", ratings: [5, 2] },
    { topicId: "v", itemId: "v:0#1", ratings: [4, 2] },
  ];
  const r = requiredSubset(judgments);
  assert.deepEqual(r.required.get("v"), ["v:0#0"]);
  assert.deepEqual(r.qrels.map((q) => [q.docId, q.grade]), [["v:0#0", 3], ["v:0#1", 2]]);
  const a = requiredSubset(judgments, { redundancy: "answerable" });
  assert.deepEqual(a.qrels.map((q) => [q.docId, q.grade]), [["v:0#0", 3], ["v:0#1", 1]]);
  // The documented example: kept [4, 0], candidate [3, 0] -> not redundant under the
  // original rule (0 is not below 0 on the unanswerable second sub-question).
  const ex = [
    { topicId: "w", itemId: "w:0#0", ratings: [4, 0] },
    { topicId: "w", itemId: "w:0#1", ratings: [3, 0] },
  ];
  assert.deepEqual(requiredSubset(ex).qrels.map((q) => q.grade), [3, 2]);
  assert.deepEqual(requiredSubset(ex, { redundancy: "answerable" }).qrels.map((q) => q.grade), [
    3,
    1,
  ]);
  // Strictly below on every sub-question, the unanswerable ones too: redundant either way.
  const low = [
    { topicId: "x", itemId: "x:0#0", ratings: [5, 2, 1] },
    { topicId: "x", itemId: "x:0#1", ratings: [4, 1, 0] },
  ];
  assert.deepEqual(requiredSubset(low).qrels.map((q) => q.grade), [3, 1]);
  assert.throws(
    () => requiredSubset(ex, { redundancy: "some" as "all" }),
    /Unknown redundancy rule "some"/,
  );
});
