import assert from "node:assert/strict";
import {
  openWorkspace,
  readMainSubqCoverageJudge,
  readSubqBackends,
  readSubqPairwiseVerdicts,
  readSubqPreferenceRows,
} from "./mod.ts";

Deno.test("subq reads: main coverage judge, backends in note order, preferences and verdicts", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    assert.equal(await readMainSubqCoverageJudge(ws), undefined);
    const cov = (textKey: string, judge: string) => ({
      textKey,
      subQuestion: "q",
      judge,
      answered: true,
      status: "ok",
    });
    // b and c tie on two judgments each: the name decides.
    await ws.upsert("subq_coverage", [cov("1", "c"), cov("2", "c"), cov("1", "b"), cov("2", "b")]);
    assert.equal(await readMainSubqCoverageJudge(ws), "b");
    await ws.upsert("subq_coverage", [cov("3", "c")]);
    assert.equal(await readMainSubqCoverageJudge(ws), "c");
    const sq = (
      topicId: string,
      ordinal: number,
      decomposer: string,
      classifier: string | null,
    ) => ({
      topicId,
      source: "decompose",
      ordinal,
      text: "q",
      type: "core",
      decomposer,
      classifier,
    });
    await ws.upsert("subq_questions", [
      sq("t", 1, "zeta", "alpha"),
      sq("t", 2, "beta", null),
      sq("u", 1, "beta", "zeta"),
      { ...sq("t", 1, "other", "other"), source: "crux" },
    ]);
    // Decomposers first, then classifiers, each in name order; zeta is both.
    assert.deepEqual(await readSubqBackends(ws, "decompose"), ["beta", "zeta", "alpha", "zeta"]);
    await ws.upsert("subq_preferences", [
      {
        source: "prefs.jsonl",
        pair: 2,
        human: "B",
        itemsA: [{ type: "core", answered: true }],
        itemsB: [],
        pairwise: "A",
        pairwiseJudge: "pj",
      },
      {
        source: "prefs.jsonl",
        pair: 1,
        human: "tie",
        itemsA: [],
        itemsB: [],
        pairwise: "tie",
        pairwiseJudge: "pj",
      },
    ]);
    assert.deepEqual(await readSubqPreferenceRows(ws), [
      {
        source: "prefs.jsonl",
        human: "tie",
        itemsA: "[]",
        itemsB: "[]",
        pairwise: "tie",
        pairwiseJudge: "pj",
      },
      {
        source: "prefs.jsonl",
        human: "B",
        itemsA: '[{"type":"core","answered":true}]',
        itemsB: "[]",
        pairwise: "A",
        pairwiseJudge: "pj",
      },
    ]);
    await ws.upsert("subq_pairwise", [
      { topicId: "t", runA: "x", runB: "y", judge: "pj", verdict: "A" },
      { topicId: "s", runA: "x", runB: "y", judge: "pj", verdict: "tie" },
    ]);
    assert.deepEqual(await readSubqPairwiseVerdicts(ws), [
      { topicId: "s", runA: "x", runB: "y", verdict: "tie", judge: "pj" },
      { topicId: "t", runA: "x", runB: "y", verdict: "A", judge: "pj" },
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
