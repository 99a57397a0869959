import assert from "node:assert/strict";
import {
  clearSubqPairwise,
  openWorkspace,
  readSubqCoverage,
  readSubqCoverageDone,
  readSubqQuestions,
  readSubqTopicIds,
  replaceSubqPreferences,
  setSubqType,
  writeSubqCoverage,
  writeSubqPairwise,
  writeSubqQuestions,
} from "./mod.ts";

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
