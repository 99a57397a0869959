import assert from "node:assert/strict";
import { answerableQuestions } from "@lib/metrics/answerable_questions.ts";
import { prepareJudged } from "@lib/metrics/judged.ts";
import { selectTopic } from "@lib/construct/select_topic.ts";

Deno.test("answerableQuestions: hand-checked masks at tau 3 and 5, -1 as 0, unrated items", () => {
  // q0: 5 (answerable at 3 and 5); q1: 3 (at 3 only); q2: -1 and 2 (never); q3: unrated.
  const rows = [[5, 0, -1, 0], [1, 3, 2, 0], undefined];
  assert.deepEqual(answerableQuestions(rows, 4), [true, true, false, false]);
  assert.deepEqual(answerableQuestions(rows, 4, { tau: 5 }), [true, false, false, false]);
  assert.deepEqual(answerableQuestions([], 2), [false, false]);
});

Deno.test("answerableQuestions: the evaluator's A and the selection's A are this function", () => {
  const ratings = [[4, 0, 1], [0, 2, 0], [3, 0, 0]];
  const ids = ["t:0#0", "t:0#1", "t:0#2"];
  const expected = answerableQuestions(ratings, 3); // [true, false, false]
  assert.deepEqual(expected, [true, false, false]);
  // Selection: A over every rated passage before P* exists.
  assert.deepEqual(selectTopic({ topicId: "t", passageIds: ids, ratings }).answerable, expected);
  // Evaluator: A over P* (here t:0#0 and t:0#2 are required).
  const judged = prepareJudged({
    judgments: ids.map((itemId, i) => ({ topicId: "t", itemId, ratings: ratings[i] })),
    qrels: [
      { topicId: "t", docId: "t:0#0", grade: 3 },
      { topicId: "t", docId: "t:0#1", grade: 1 },
      { topicId: "t", docId: "t:0#2", grade: 3 },
    ],
  });
  const mask = judged.topics.get("t")!.crux!.answerable(3, true);
  assert.deepEqual([...mask].map(Boolean), expected);
});
