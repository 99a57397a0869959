import assert from "node:assert/strict";
import { subquestionTypeScores, type TypedCoverage } from "./subquestion_type_scores.ts";
import { answerRating } from "./answer_rating.ts";
import { preferenceAccuracy } from "./preference_accuracy.ts";

// Four core sub-questions: (answered, retrieved) = (T,T) (T,F) (F,T) (F,F),
// chunk shares 0.6, 0.2, 0.3, 0.1; positions of the answered ones 10 and 30.
// Background: one answered at 50. Follow-up: one answered at 90, one neither.
const items: TypedCoverage[] = [
  { type: "core", answered: true, retrieved: true, chunkShare: 0.6, position: 10 },
  { type: "core", answered: true, retrieved: false, chunkShare: 0.2, position: 30 },
  { type: "core", answered: false, retrieved: true, chunkShare: 0.3 },
  { type: "core", answered: false, retrieved: false, chunkShare: 0.1 },
  { type: "background", answered: true, retrieved: true, position: 50 },
  { type: "follow-up", answered: true, retrieved: false, position: 90 },
  { type: "follow-up", answered: false, retrieved: false },
];

Deno.test("subquestionTypeScores computes the cells and #1-#6", () => {
  const s = subquestionTypeScores(items);
  assert.deepEqual(s.cells.core, {
    answeredRetrieved: 0.25,
    answeredNotRetrieved: 0.25,
    notAnsweredRetrieved: 0.25,
    notAnsweredNotRetrieved: 0.25,
  });
  assert.deepEqual(s.answered, { core: 0.5, background: 1, "follow-up": 0.5 }); // #1
  assert.deepEqual(s.retrieved, { core: 0.5, background: 1, "follow-up": 0 }); // #2
  assert.equal(s.answeredGivenRetrieved, 0.5); // #3: 0.25 / 0.5
  assert.equal(s.missedGivenNotAnswered, 0.5); // #4: 0.25 / 0.5
  assert.ok(Math.abs(s.chunkShareGap - (0.4 - 0.2)) < 1e-15); // #5: mean(0.6,0.2) - mean(0.3,0.1)
  assert.equal(s.positionGap, 90 - (20 + 50) / 2); // #6: 55
  assert.throws(
    () => subquestionTypeScores([{ type: "side" as "core", answered: true, retrieved: true }]),
    /type "side"/,
  );
});

Deno.test("answerRating weighs coverage by type and preferenceAccuracy drops ties", () => {
  // core 0.5 x 1 + background 1 x 0.5 + follow-up 0.5 x -1 = 0.5.
  assert.equal(answerRating(items), 0.5);
  assert.equal(answerRating(items, { weights: { core: 2, background: 0, "follow-up": 0 } }), 1);
  assert.equal(
    preferenceAccuracy([
      { ratingA: 1, ratingB: 0.5, human: "A" }, // hit
      { ratingA: 1, ratingB: 2, human: "A" }, // miss
      { ratingA: 0, ratingB: 1, human: "B" }, // hit
      { ratingA: 1, ratingB: 1, human: "B" }, // equal ratings: miss
      { ratingA: 3, ratingB: 1, human: "tie" }, // removed
    ]),
    0.5,
  );
  assert.ok(Number.isNaN(preferenceAccuracy([{ ratingA: 1, ratingB: 0, human: "tie" }])));
});
