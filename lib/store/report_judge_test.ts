import assert from "node:assert/strict";
import { defaultReportJudge, openWorkspace } from "./mod.ts";

const rating = (itemId: string, judge: string) => ({
  topicId: "t",
  itemId,
  questionId: "t#q1",
  rating: 4,
  judge,
});

Deno.test("defaultReportJudge: most ratings of generated reports; samples lose ties; passages do not count", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    assert.equal(await defaultReportJudge(ws), undefined);
    // Passage and reference ratings do not make a report judge.
    await ws.upsert("ratings", [
      rating("t:0#0", "human"),
      rating("t:0#1", "human"),
      rating("t:0#2", "human"),
      rating("t:report", "human"),
    ]);
    assert.equal(await defaultReportJudge(ws), undefined);
    await ws.upsert("ratings", [
      rating("t:report:a", "lexical"),
      rating("t:report:b", "lexical"),
      rating("t:report:a", "gpt"),
    ]);
    assert.equal(await defaultReportJudge(ws), "lexical");
    // A sample with as many ratings as every judge ("a#s1" sorts before "lexical") loses.
    await ws.upsert("ratings", [rating("t:report:a", "a#s1"), rating("t:report:b", "a#s1")]);
    assert.equal(await defaultReportJudge(ws), "lexical");
    // More ratings win, sample or not.
    await ws.upsert("ratings", [rating("t:report:c", "a#s1")]);
    assert.equal(await defaultReportJudge(ws), "a#s1");
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
