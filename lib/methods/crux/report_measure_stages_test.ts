import assert from "node:assert/strict";
import { openWorkspace, recordFailedGenerations, type Workspace } from "@lib/store/mod.ts";
import type { StageOutcome } from "@lib/pipeline/mod.ts";
import { cruxChainEnv } from "./chain_env.ts";
import { judgingStages } from "./judging_stages.ts";
import { reportMeasureStages } from "./report_measure_stages.ts";
import { writeOneTopicReport } from "../../../tests/support/one_topic_report.ts";

/** The one-topic report fixture with the RAG report of run `rag-x`. */
const fixture = (ws: Workspace) =>
  writeOneTopicReport(ws, { run: "rag-x", text: "A report about the topic." });

const env = cruxChainEnv(
  { name: "x", workspace: "outputs/x", analysis: { thresholds: [3, 5] } },
  { backends: () => () => Promise.resolve({}) },
);
const [judge] = judgingStages(env, ["rag-x"]);
const [measure] = reportMeasureStages(env, ["rag-x"]);

/** The stored report rating rows of the offline judge, as (question, rating). */
const reportRatings = async (ws: Workspace) =>
  (await ws.query<{ questionId: string; rating: number }>(
    `SELECT question_id AS "questionId", rating FROM ratings
     WHERE judge = 'lexical' AND item_id = 't:report:rag-x' ORDER BY question_id`,
  )).map((r) => [r.questionId, r.rating]);

/** The stored crux rows of the run, as [topic, measure, source, value, topics], sorted. */
const stored = async (ws: Workspace) =>
  (await ws.measures({ run: "rag-x" }))
    .map((m) => [m.topicId, m.measure, m.source, m.value, m.topics ?? null])
    .sort((a, b) => String(a).localeCompare(String(b)));

Deno.test("the judge stage stores only ratings; the measure stage computes Cov and Den from them", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await fixture(ws);
    const rated = await judge.run(ws) as StageOutcome;
    // The report is rated on the answerable Q1 and Q2 only, and nothing is measured.
    assert.equal(rated.items, 2);
    assert.deepEqual((await reportRatings(ws)).map(([q]) => q), ["t#q1", "t#q2"]);
    assert.deepEqual(await stored(ws), []);

    // Ratings as a judge might give them: Q1 4, Q2 1. The measure stage reads them.
    await ws.upsert("ratings", [
      { topicId: "t", itemId: "t:report:rag-x", questionId: "t#q1", rating: 4, judge: "lexical" },
      { topicId: "t", itemId: "t:report:rag-x", questionId: "t#q2", rating: 1, judge: "lexical" },
    ]);
    await measure.run(ws);
    // By hand. tau 3: A = {Q1, Q2}; the report answers Q1 (4 >= 3): Cov(y) = 1/2.
    // |P*| = 100 + 300 = 400 tokens, Cov(P*) = 1, |y| = 100:
    // Den(y) = ((1/2 / 100) / (1 / 400))^0.5 = 2^0.5.
    // Context: t:0#2 answers Q1 (3), x:0#0 unrated (0): Cov(Z) = 1/2, |Z| = 50 + 80 = 130,
    // Den(Z) = ((1/2 / 130) / (1 / 400))^0.5 = (200/130)^0.5.
    // tau 5: A = {Q1} (t:0#0 rates it 5); the report's 4 < 5: Cov = 0, Den = 0.
    const sqrt2 = Math.sqrt(2);
    const ctxDen = Math.sqrt(200 / 130);
    const rows = await stored(ws);
    const values = rows.map(([t, m, s, v, n]) => [t, m, s, Math.round(Number(v) * 1e12), n]);
    const r = (x: number) => Math.round(x * 1e12);
    assert.deepEqual(values, [
      ["all", "Cov", "context", r(0.5), 1],
      ["all", "Cov", "report", r(0.5), 1],
      ["all", "Cov(tau=5)", "report", 0, 1],
      ["all", "Den", "context", r(ctxDen), 1],
      ["all", "Den", "report", r(sqrt2), 1],
      ["all", "Den(tau=5)", "report", 0, 1],
      // The report's stored 100 tokens, beside each Cov(y) mean and value.
      ["all", "Tokens", "report", r(100), 1],
      ["all", "Tokens(tau=5)", "report", r(100), 1],
      // The budget = |P*| = 400 tokens; the report's 100 tokens are 1/4 of it; its
      // context holds 2 passages (t:0#2, x:0#0).
      ["t", "Budget", "report", r(400), null],
      ["t", "ContextPassages", "report", r(2), null],
      ["t", "Cov", "context", r(0.5), null],
      ["t", "Cov", "report", r(0.5), null],
      ["t", "Cov(tau=5)", "report", 0, null],
      ["t", "Den", "context", r(ctxDen), null],
      ["t", "Den", "report", r(sqrt2), null],
      ["t", "Den(tau=5)", "report", 0, null],
      ["t", "Tokens", "report", r(100), null],
      ["t", "Tokens(tau=5)", "report", r(100), null],
      ["t", "Tokens/Budget", "report", r(0.25), null],
    ]);
    assert.ok((await ws.measures({ run: "rag-x" })).every((m) => m.method === "crux"));
    assert.ok((await ws.measures({ run: "rag-x" })).every((m) => m.judge === "lexical"));
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a missing report rating leaves its topic's Cov and Den and the run's means absent, and says which topic", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await fixture(ws);
    // Q1 rated, Q2's call failed (nothing stored).
    await ws.upsert("ratings", [
      { topicId: "t", itemId: "t:report:rag-x", questionId: "t#q1", rating: 4, judge: "lexical" },
    ]);
    const notes: string[] = [];
    const [noted] = reportMeasureStages(
      cruxChainEnv(
        { name: "x", workspace: "outputs/x", analysis: { thresholds: [3, 5] } },
        {
          backends: () => () => Promise.resolve({}),
          onNote: (stage, m) => notes.push(`${stage}: ${m}`),
        },
      ),
      ["rag-x"],
    );
    await noted.run(ws);
    // No report value at tau 3 (Q2 is missing) nor a run mean. At tau 5 A = {Q1}, which
    // is rated: the topic has Cov(tau=5) = 0, but the run no mean (its values at the
    // judge's own tau are partial). The context needs no report rating: Cov(Z) = 1/2,
    // but its mean stays too, being the run's context over every topic.
    const rows = (await stored(ws)).map(([t, m, s, , n]) => [t, m, s, n]);
    assert.deepEqual(rows, [
      ["all", "Cov", "context", 1],
      ["all", "Den", "context", 1],
      // The report against its budget needs no rating.
      ["t", "Budget", "report", null],
      ["t", "ContextPassages", "report", null],
      ["t", "Cov", "context", null],
      ["t", "Cov(tau=5)", "report", null],
      ["t", "Den", "context", null],
      ["t", "Den(tau=5)", "report", null],
      // The length beside the one Cov(y) value stored (at tau 5); no mean.
      ["t", "Tokens(tau=5)", "report", null],
      ["t", "Tokens/Budget", "report", null],
    ]);
    assert.deepEqual(notes, [
      'measure: Run "rag-x": no mean Cov or Den of its reports; 1 ratings failed or unparsed in 1 topics (t), which have no value; re-run to retry them',
      'measure: Run "rag-x": 1 context passages had no rating and counted 0 (rate them with: crux judge reports --workspace DIR --run rag-x --judge-unjudged)',
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the measure stage stores each report against its budget; a value it cannot compute has no row", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await fixture(ws);
    await ws.upsert("ratings", [
      { topicId: "t", itemId: "t:report:rag-x", questionId: "t#q1", rating: 4, judge: "lexical" },
      { topicId: "t", itemId: "t:report:rag-x", questionId: "t#q2", rating: 1, judge: "lexical" },
    ]);
    // w: P* = x:0#0 (80 tokens), its report has no token count and no context.
    // z: P* names a passage the workspace lacks (no token count), a 10-token report.
    // v: no P*, a 40-token report from one passage. u: the report failed to generate.
    await ws.upsert("qrels", [
      { name: "crux_pr", topicId: "w", subtopic: "0", docId: "x:0#0", grade: 3 },
      { name: "crux_pr", topicId: "z", subtopic: "0", docId: "gone:0#0", grade: 3 },
    ]);
    const report = (topicId: string, tokens: number | null, contextIds: string[]) => ({
      run: "rag-x",
      topicId,
      text: `A report on ${topicId}.`,
      condition: "rag",
      backend: "extractive",
      contextIds,
      tokens,
    });
    await ws.upsert("generations", [
      report("w", null, []),
      report("z", 10, ["gone:0#0"]),
      report("v", 40, ["t:0#0"]),
    ]);
    await recordFailedGenerations(ws, "rag-x", ["u"]);
    await measure.run(ws);
    const rows = (await ws.measures({ run: "rag-x", source: "report" }))
      .filter((m) => ["Budget", "Tokens/Budget", "ContextPassages"].includes(m.measure))
      .map((m) => [m.topicId, m.measure, m.value, m.topicSet, m.judge, m.method])
      .sort((a, b) => String(a).localeCompare(String(b)));
    const row = (
      topicId: string,
      measure: string,
      value: number,
    ) => [topicId, measure, value, `topic(id=${topicId})`, "lexical", "crux"];
    assert.deepEqual(rows, [
      // t: |P*| = 100 + 300 = 400; 100 / 400 = 0.25; context t:0#2 and x:0#0.
      row("t", "Budget", 400),
      row("t", "ContextPassages", 2),
      row("t", "Tokens/Budget", 0.25),
      // v: no P*, so no budget and no share of it; one context passage.
      row("v", "ContextPassages", 1),
      // w: budget 80; no token count of the report, so no share; no context.
      row("w", "Budget", 80),
      row("w", "ContextPassages", 0),
      // z: a passage of P* without a token count: no budget, no share.
      row("z", "ContextPassages", 1),
    ]);
    // u failed to generate: nothing of it is stored.
    assert.deepEqual((await ws.measures({ run: "rag-x", topicId: "u" })).length, 0);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
