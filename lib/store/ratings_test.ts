import assert from "node:assert/strict";
import {
  openWorkspace,
  readPassageJudgments,
  readRatingCounts,
  readReportQuestionRatings,
} from "./mod.ts";
import { clearReportRatings, clearSampleJudgeRatings } from "./ratings.ts";
import { withTempWorkspace } from "../../tests/support/temp_workspace.ts";

const q = (topicId: string, n: number) => ({
  topicId,
  questionId: `${topicId}#q${n}`,
  kind: "subquestion",
  ordinal: n,
  text: `question ${n}`,
});
const r = (topicId: string, itemId: string, n: number, rating: number, judge = "human") => ({
  topicId,
  itemId,
  questionId: `${topicId}#q${n}`,
  rating,
  judge,
});

Deno.test("readPassageJudgments: passages only, sub-question order, 0 for unrated, text optional", async () => {
  await withTempWorkspace(async (ws) => {
    // Ordinals 2 before 10: the ratings follow the ordinal, not the id's text.
    await ws.upsert("questions", [q("t", 10), q("t", 2), q("u", 1)]);
    await ws.upsert("passages", [
      { passageId: "t:0#10", topicId: "t", docId: "t:0", text: "ten", tokens: 4 },
      { passageId: "t:0#2", topicId: "t", docId: "t:0", text: "two", tokens: null },
    ]);
    await ws.upsert("ratings", [
      r("t", "t:0#10", 10, 5),
      r("t", "t:0#10", 2, 3),
      r("t", "t:0#2", 2, 4),
      // No text in the workspace: kept. An id of another scheme sorts last.
      r("t", "t:1#0", 10, 1),
      r("t", "t-extra", 2, 1),
      // A report and another judge: left out.
      r("t", "t:report:rag", 2, 5),
      r("t", "t:0#2", 10, 5, "gpt"),
      // A topic without sub-questions: left out.
      { topicId: "v", itemId: "v:0#0", questionId: "v#q1", rating: 5, judge: "human" },
    ]);
    const { judgments, tokens } = await readPassageJudgments(ws, "human", "measure");
    assert.deepEqual(judgments, [
      { topicId: "t", itemId: "t:1#0", ratings: [0, 1] },
      { topicId: "t", itemId: "t:0#2", ratings: [4, 0] },
      { topicId: "t", itemId: "t:0#10", ratings: [3, 5] },
      { topicId: "t", itemId: "t-extra", ratings: [1, 0] },
    ]);
    assert.deepEqual(tokens, new Map([["t:0#10", 4], ["t:0#2", null]]));
    // A rating whose item was never recorded in rated_items is an error.
    await ws.exec("DELETE FROM rated_items WHERE item_id = 't:0#2' AND judge = 'human'");
    await assert.rejects(
      () => readPassageJudgments(ws, "human", "measure"),
      /Cannot measure: rated item "t:0#2" of judge "human" is not in rated_items; run `crux workspace migrate`/,
    );
  });
});

Deno.test("readReportQuestionRatings: one row per sub-question, null where unrated; readRatingCounts", async () => {
  await withTempWorkspace(async (ws) => {
    await ws.upsert("questions", [q("t", 1), q("t", 2), q("u", 1)]);
    await ws.upsert("ratings", [
      r("t", "t:report:rag", 2, 4, "gpt"),
      r("t", "t:report", 1, 5, "gpt"),
      r("u", "u:report:rag", 1, 3, "gpt"),
      r("t", "t:d#0", 1, 2, "human"),
    ]);
    assert.deepEqual(await readReportQuestionRatings(ws, "gpt", "rag"), [
      { topicId: "t", rating: null },
      { topicId: "t", rating: 4 },
      { topicId: "u", rating: 3 },
    ]);
    assert.deepEqual(await readReportQuestionRatings(ws, "gpt", "oracle-result"), [
      { topicId: "t", rating: 5 },
      { topicId: "t", rating: null },
      { topicId: "u", rating: null },
    ]);
    assert.deepEqual(await readRatingCounts(ws), [
      { judge: "gpt", itemKind: "reference", n: 1 },
      { judge: "gpt", itemKind: "report", n: 2 },
      { judge: "human", itemKind: "passage", n: 1 },
    ]);
  });
});

const item = (itemId: string, judge: string, itemKind: string, run: string | null) => ({
  itemId,
  judge,
  topicId: "t1",
  itemKind,
  run,
});
const rating = (itemId: string, judge: string) => ({
  topicId: "t1",
  itemId,
  questionId: "q1",
  rating: 4,
  judge,
});

Deno.test("clearReportRatings deletes one judge's ratings of one run's reports or of the references", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.insert("rated_items", [
      item("p1", "j", "passage", null),
      item("rag:t1", "j", "report", "rag"),
      item("rag:t1", "k", "report", "rag"),
      item("direct:t1", "j", "report", "direct"),
      item("ref:t1", "j", "reference", null),
      item("p1", "j#s1", "passage", null),
    ]);
    await ws.insert("ratings", [
      rating("p1", "j"),
      rating("rag:t1", "j"),
      rating("rag:t1", "k"),
      rating("direct:t1", "j"),
      rating("ref:t1", "j"),
      rating("p1", "j#s1"),
    ]);
    const left = async () =>
      (await ws.query<{ k: string }>(
        "SELECT item_id || '/' || judge AS k FROM ratings ORDER BY k",
      )).map((r) => r.k);
    await clearReportRatings(ws, "j", "rag");
    assert.deepEqual(await left(), ["direct:t1/j", "p1/j", "p1/j#s1", "rag:t1/k", "ref:t1/j"]);
    await clearReportRatings(ws, "j", "oracle-result");
    assert.deepEqual(await left(), ["direct:t1/j", "p1/j", "p1/j#s1", "rag:t1/k"]);
    const passageJudges = async () =>
      (await readRatingCounts(ws)).filter((c) => c.itemKind === "passage").map((c) => c.judge);
    assert.deepEqual(await passageJudges(), ["j", "j#s1"]);
    await clearSampleJudgeRatings(ws);
    assert.deepEqual(await left(), ["direct:t1/j", "p1/j", "rag:t1/k"]);
    assert.deepEqual(await passageJudges(), ["j"]);
    // The rated items of the cleared reports stay; only sample judges' items go.
    assert.equal(await ws.count("rated_items"), 5);
  } finally {
    ws.close();
  }
});

Deno.test("readPassageJudgments: a passage rated under two topics is judged under each with that topic's ratings", async () => {
  await withTempWorkspace(async (ws) => {
    await ws.upsert("questions", [q("a", 1), q("a", 2), q("b", 1), q("c", 1)]);
    await ws.upsert("ratings", [
      // a:0#1 belongs to a's documents; b's ranking retrieved it too.
      r("a", "a:0#1", 1, 4),
      r("a", "a:0#1", 2, 0),
      r("b", "a:0#1", 1, 1),
      // b:0#0 is rated only under a: unjudged for b.
      r("a", "b:0#0", 1, 2),
      r("a", "b:0#0", 2, 5),
      // The same question id under two topics (ids need not name their topic).
      { topicId: "c", itemId: "a:0#1", questionId: "a#q1", rating: 3, judge: "human" },
    ]);
    const { judgments } = await readPassageJudgments(ws, "human", "measure");
    // Passage order (j), then topic.
    assert.deepEqual(judgments, [
      { topicId: "a", itemId: "b:0#0", ratings: [2, 5] },
      { topicId: "a", itemId: "a:0#1", ratings: [4, 0] },
      { topicId: "b", itemId: "a:0#1", ratings: [1] },
      // c's own question c#q1 has no rating of the item; a#q1 under c is not a's.
      { topicId: "c", itemId: "a:0#1", ratings: [0] },
    ]);
    const items = await ws.query<{ topicId: string; itemId: string }>(
      "SELECT topic_id, item_id FROM rated_items ORDER BY ALL",
    );
    assert.deepEqual(items.map((i) => `${i.topicId} ${i.itemId}`), [
      "a a:0#1",
      "a b:0#0",
      "b a:0#1",
      "c a:0#1",
    ]);
  });
});
