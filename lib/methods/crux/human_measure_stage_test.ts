import assert from "node:assert/strict";
import { join } from "node:path";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import { cruxChainEnv } from "./chain_env.ts";
import { humanMeasureStage } from "./human_measure_stage.ts";
import { writeOneTopicReport } from "../../../tests/support/one_topic_report.ts";

/**
 * The shared one-topic fixture (tests/support/one_topic_report.ts): topic t with
 * Q1..Q3; P* = t:0#0 (Q1 rated 5), t:0#1 (Q2 rated 4): A(3) = {Q1, Q2}, A(5) = {Q1}.
 * One report of run rag-x.
 */
async function fixture(ws: Workspace) {
  await ws.upsert("topics", [{
    topicId: "t",
    request: "R",
    title: "T",
    summary: "S",
    source: "x",
  }]);
  await writeOneTopicReport(ws, { run: "rag-x", text: "A report." });
}

Deno.test("measure:human stores the labels file's coverage per (topic, condition) and each complete mean", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await fixture(ws);
    const file = join(dir, "labels.jsonl");
    // rag-x judged [4, 3, 5]: at tau 3 Q1 and Q2 of A(3) covered -> 1; at tau 5 Q1 (4) not -> 0.
    // The human summary given as coverage 0.6 (the same at every tau).
    await Deno.writeTextFile(
      file,
      '{"id":"t","docid":"t:report:rag-x","rating":[4,3,5]}\n' +
        '{"topicId":"t","condition":"oracle-result","coverage":0.6}\n',
    );
    const env = cruxChainEnv(
      { name: "x", workspace: dir, analysis: { thresholds: [3, 5], human: file } },
      { backends: () => () => Promise.resolve({}) },
    );
    const stage = await humanMeasureStage(env, ["rag-x"]);
    assert.deepEqual(stage.deps, ["select", "judge:rag-x"]);
    assert.match(String(await stage.run(ws)), /^8 coverage values of human-labels's 2 labels$/);
    const rows = (await ws.measures({ source: "human" }))
      .map((r) => [r.run, r.topicId, r.measure, r.value, r.topics ?? null, r.judge, r.method])
      .sort((a, b) => String(a).localeCompare(String(b)));
    assert.deepEqual(rows, [
      ["oracle-result", "all", "Cov", 0.6, 1, "human-labels", "crux"],
      ["oracle-result", "all", "Cov(tau=5)", 0.6, 1, "human-labels", "crux"],
      ["oracle-result", "t", "Cov", 0.6, null, "human-labels", "crux"],
      ["oracle-result", "t", "Cov(tau=5)", 0.6, null, "human-labels", "crux"],
      ["rag-x", "all", "Cov", 1, 1, "human-labels", "crux"],
      ["rag-x", "all", "Cov(tau=5)", 0, 1, "human-labels", "crux"],
      ["rag-x", "t", "Cov", 1, null, "human-labels", "crux"],
      ["rag-x", "t", "Cov(tau=5)", 0, null, "human-labels", "crux"],
    ]);
    // An edited file is another input: the stage's parameters change.
    const before = JSON.stringify(stage.params);
    await Deno.writeTextFile(file, '{"topicId":"t","condition":"oracle-result","coverage":0.5}\n');
    assert.notEqual(JSON.stringify((await humanMeasureStage(env, ["rag-x"])).params), before);
    // Cleared with its stage.
    await stage.clear!(ws);
    assert.deepEqual(await ws.measures({ source: "human" }), []);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("measure:human gives no coverage where the annotator left an answerable sub-question unrated", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await fixture(ws);
    // The workspace's own human ratings of rag-x's report: Q1 rated 5, Q2 and Q3 not
    // rated; the automatic judge rated all three.
    const report = { topicId: "t", itemId: "t:report:rag-x" };
    await ws.upsert("ratings", [
      { ...report, questionId: "t#q1", rating: 5, judge: "human" },
      ...[1, 2, 3].map((k) => ({ ...report, questionId: `t#q${k}`, rating: 2, judge: "lexical" })),
    ]);
    const notes: string[] = [];
    const env = cruxChainEnv(
      { name: "x", workspace: dir, analysis: { thresholds: [3, 5], reportJudge: "lexical" } },
      { backends: () => () => Promise.resolve({}), onNote: (_s, m) => notes.push(m) },
    );
    await (await humanMeasureStage(env, ["rag-x"])).run(ws);
    const rows = (await ws.measures({ source: "human" }))
      .map((r) => [r.run, r.topicId, r.measure, r.value])
      .sort((a, b) => String(a).localeCompare(String(b)));
    // tau 3: A(3) = {Q1, Q2} and Q2 is unrated: no value, never Q2 counted as 0 (which
    // would give 1/2). tau 5: A(5) = {Q1}, rated 5: coverage 1.
    assert.deepEqual(rows, [
      ["rag-x", "all", "Cov(tau=5)", 1],
      ["rag-x", "t", "Cov(tau=5)", 1],
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
