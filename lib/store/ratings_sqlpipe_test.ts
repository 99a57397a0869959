import assert from "node:assert/strict";
import { openWorkspace } from "./open_workspace.ts";
import {
  clearReportRatings,
  clearSampleJudgeRatings,
  readPassageJudges,
} from "./ratings_sqlpipe.ts";

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
    assert.deepEqual(await readPassageJudges(ws), ["j", "j#s1"]);
    await clearSampleJudgeRatings(ws);
    assert.deepEqual(await left(), ["direct:t1/j", "p1/j", "rag:t1/k"]);
    assert.deepEqual(await readPassageJudges(ws), ["j"]);
    // The rated items of the cleared reports stay; only sample judges' items go.
    assert.equal(await ws.count("rated_items"), 5);
  } finally {
    ws.close();
  }
});
