import assert from "node:assert/strict";
import { openWorkspace } from "./open_workspace.ts";
import {
  clearAllSubqPairwise,
  clearSubqCoverage,
  clearSubqPreferences,
  clearSubquestionSource,
  clearSubquestionTypes,
} from "./subq_sqlpipe.ts";

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
