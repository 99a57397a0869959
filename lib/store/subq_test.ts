import assert from "node:assert/strict";
import {
  clearSubqPairwise,
  openWorkspace,
  readMainSubqCoverageJudge,
  readSubqBackends,
  readSubqCoverage,
  readSubqCoverageDone,
  readSubqPairwiseVerdicts,
  readSubqPreferenceRows,
  readSubqQuestions,
  readSubqTopicIds,
  replaceSubqPreferences,
  setSubqType,
  writeSubqCoverage,
  writeSubqPairwise,
  writeSubqQuestions,
} from "./mod.ts";
import {
  clearAllSubqPairwise,
  clearSubqCoverage,
  clearSubqPreferences,
  clearSubquestionSource,
  clearSubquestionTypes,
} from "./subq.ts";

Deno.test("subq questions: ordered by topic and ordinal, one type set, other sources apart", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await writeSubqQuestions(ws, [
      { topicId: "t2", source: "decompose", ordinal: 1, text: "Where?" },
      { topicId: "t1", source: "decompose", ordinal: 2, text: "When?" },
      { topicId: "t1", source: "decompose", ordinal: 1, text: "Who?" },
      { topicId: "t1", source: "crux", ordinal: 1, text: "What?" },
    ]);
    assert.equal(
      await setSubqType(ws, {
        topicId: "t1",
        source: "decompose",
        ordinal: 2,
        type: "core",
        classifier: "offline",
      }),
      1,
    );
    assert.deepEqual(await readSubqQuestions(ws, "decompose"), [
      { topicId: "t1", ordinal: 1, text: "Who?", type: null },
      { topicId: "t1", ordinal: 2, text: "When?", type: "core" },
      { topicId: "t2", ordinal: 1, text: "Where?", type: null },
    ]);
    assert.deepEqual(await readSubqQuestions(ws, "crux"), [
      { topicId: "t1", ordinal: 1, text: "What?", type: null },
    ]);
    assert.deepEqual((await readSubqTopicIds(ws, "decompose")).sort(), ["t1", "t2"]);
    assert.deepEqual(await readSubqTopicIds(ws, "crux"), ["t1"]);
    // No such sub-question: nothing changes.
    assert.equal(
      await setSubqType(ws, {
        topicId: "t9",
        source: "decompose",
        ordinal: 1,
        type: "core",
        classifier: "x",
      }),
      0,
    );
  } finally {
    ws.close();
  }
});

Deno.test("subq coverage: done keys leave out failed judgments and other judges", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await writeSubqCoverage(ws, [
      { textKey: "a", subQuestion: "Who?", judge: "m", answered: true, position: 40, status: "ok" },
      { textKey: "a", subQuestion: "When?", judge: "m", answered: null, status: "unparsed" },
      { textKey: "b", subQuestion: "Who?", judge: "m", answered: null, status: "failed" },
      { textKey: "b", subQuestion: "Who?", judge: "n", answered: false, status: "ok" },
    ]);
    assert.deepEqual((await readSubqCoverageDone(ws, "m")).sort(), ["a\0When?", "a\0Who?"]);
    const verdicts = new Map((await readSubqCoverage(ws, "m")).map((r) => [r.k, r]));
    assert.equal(verdicts.size, 3);
    assert.deepEqual(verdicts.get("a\0Who?"), { k: "a\0Who?", answered: true, position: 40 });
    assert.deepEqual(verdicts.get("b\0Who?"), { k: "b\0Who?", answered: null, position: null });
  } finally {
    ws.close();
  }
});

Deno.test("clearSubqPairwise deletes only the judge's pairs whose runs are both listed", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const pair = (runA: string, runB: string, judge: string) => ({
      topicId: "t1",
      runA,
      runB,
      judge,
      forward: "A",
      swapped: "B",
      verdict: "A",
    });
    await writeSubqPairwise(ws, [
      pair("a", "b", "m"),
      pair("a", "c", "m"),
      pair("a", "b", "n"),
    ]);
    assert.equal(await clearSubqPairwise(ws, "m", ["a", "b"]), 1);
    const left = await ws.query<{ runA: string; runB: string; judge: string }>(
      `SELECT run_a AS "runA", run_b AS "runB", judge FROM subq_pairwise ORDER BY ALL`,
    );
    assert.deepEqual(left, [
      { runA: "a", runB: "b", judge: "n" },
      { runA: "a", runB: "c", judge: "m" },
    ]);
  } finally {
    ws.close();
  }
});

Deno.test("replaceSubqPreferences replaces one preference set and keeps the others", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const row = (source: string, pair: number) => ({
      source,
      pair,
      question: "q",
      preference: 1,
      human: "A",
      itemsA: "[]",
      itemsB: "[]",
      judge: "m",
      pairwiseJudge: "m",
      pairwise: "A",
    });
    await replaceSubqPreferences(ws, "x.jsonl", [row("x.jsonl", 1), row("x.jsonl", 2)]);
    await replaceSubqPreferences(ws, "y.jsonl", [row("y.jsonl", 1)]);
    await replaceSubqPreferences(ws, "x.jsonl", [row("x.jsonl", 3)]);
    const left = await ws.query<{ source: string; pair: number }>(
      `SELECT source, pair FROM subq_preferences ORDER BY ALL`,
    );
    assert.deepEqual(left, [{ source: "x.jsonl", pair: 3 }, { source: "y.jsonl", pair: 1 }]);
  } finally {
    ws.close();
  }
});

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

Deno.test("sub-question clears delete or reset exactly one source's or judge's rows", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const q = (source: string, ordinal: number) => ({
      topicId: "t1",
      source,
      ordinal,
      text: "q",
      type: "core",
      decomposer: "d",
      classifier: "c",
    });
    await ws.insert("subq_questions", [q("decompose", 1), q("decompose", 2), q("crux", 1)]);
    await ws.insert("subq_failures", [
      { topicId: "t2", source: "decompose", step: "decompose", status: "failed" },
      { topicId: "t2", source: "crux", step: "classify", status: "failed" },
    ]);
    await clearSubquestionTypes(ws, "decompose");
    assert.deepEqual(
      await ws.query(
        "SELECT source, ordinal, type, decomposer, classifier FROM subq_questions ORDER BY ALL",
      ),
      [
        { source: "crux", ordinal: 1, type: "core", decomposer: "d", classifier: "c" },
        { source: "decompose", ordinal: 1, type: null, decomposer: "d", classifier: null },
        { source: "decompose", ordinal: 2, type: null, decomposer: "d", classifier: null },
      ],
    );
    await clearSubquestionSource(ws, "decompose");
    assert.deepEqual(await ws.query("SELECT source FROM subq_questions"), [{ source: "crux" }]);
    assert.deepEqual(await ws.query("SELECT source FROM subq_failures"), [{ source: "crux" }]);

    await ws.insert("subq_coverage", [
      { textKey: "a", subQuestion: "q", judge: "j", answered: true },
      { textKey: "a", subQuestion: "q", judge: "k", answered: false },
    ]);
    await clearSubqCoverage(ws, "j");
    assert.deepEqual(await ws.query("SELECT judge FROM subq_coverage"), [{ judge: "k" }]);
    await ws.insert("subq_pairwise", [{ topicId: "t1", runA: "a", runB: "b", judge: "j" }]);
    await clearAllSubqPairwise(ws);
    assert.equal(await ws.count("subq_pairwise"), 0);
    await ws.insert("subq_preferences", [
      { source: "p.jsonl", pair: 1, question: "x" },
      { source: "q.jsonl", pair: 1, question: "x" },
    ]);
    await clearSubqPreferences(ws, "p.jsonl");
    assert.deepEqual(await ws.query("SELECT source FROM subq_preferences"), [
      { source: "q.jsonl" },
    ]);
  } finally {
    ws.close();
  }
});
