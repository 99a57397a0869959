import assert from "node:assert/strict";
import { openWorkspace, passageJudge, recordQrels } from "./mod.ts";

const rating = (itemId: string, judge: string) => ({
  topicId: "t",
  itemId,
  questionId: "t#q1",
  rating: 4,
  judge,
});

Deno.test("passageJudge: asked, only, the selection's judge, the preferred, else an error", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await assert.rejects(
      () => passageJudge(ws, "measure"),
      /Cannot measure: the workspace has no passage ratings/,
    );
    await ws.upsert("ratings", [rating("t:0#0", "human"), rating("t:0#1", "human")]);
    assert.equal(await passageJudge(ws, "measure"), "human");
    // The report judge rates a report and one unjudged context passage.
    await ws.upsert("ratings", [rating("t:report:rag", "lexical"), rating("t:9#0", "lexical")]);
    await assert.rejects(
      () => passageJudge(ws, "measure"),
      /Cannot measure without a judge; choose one of "human", "lexical"/,
    );
    assert.equal(await passageJudge(ws, "measure", undefined, { prefer: "lexical" }), "lexical");
    // Once a selection records its judge, that judge wins over the preferred one ...
    await recordQrels(ws, { name: "crux_pr", origin: "selection", judge: "human", tau: 3 });
    assert.equal(await passageJudge(ws, "measure", undefined, { prefer: "lexical" }), "human");
    // ... except for a new selection, and never over the judge asked for.
    assert.equal(
      await passageJudge(ws, "select", undefined, { prefer: "lexical", selection: false }),
      "lexical",
    );
    assert.equal(await passageJudge(ws, "measure", "lexical"), "lexical");
    await assert.rejects(
      () => passageJudge(ws, "measure", "gpt"),
      /Cannot measure with judge "gpt": it rated no passage; choose one of "human", "lexical"/,
    );
    // A selection judge that rated no passage is not taken.
    await recordQrels(ws, { name: "crux_pr", origin: "selection", judge: "gone", tau: 3 });
    await assert.rejects(() => passageJudge(ws, "measure"), /without a judge/);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
