import assert from "node:assert/strict";
import { openWorkspace } from "@lib/store/mod.ts";
import type { AnswerabilityJudge } from "@lib/llm/mod.ts";
import { judgeReports } from "./judge_reports.ts";
import { rateReports } from "./rate_reports.ts";
import { measureReports } from "./measure_reports.ts";
import { writeOneTopicReport } from "../../tests/support/one_topic_report.ts";

/** A scripted judge: rating by (context text, question text); counts the pairs it is asked. */
function scriptedJudge(table: Record<string, Record<string, number>>) {
  const asked: string[] = [];
  const judge: AnswerabilityJudge = {
    name: "scripted",
    rate(pairs) {
      asked.push(...pairs.map((p) => `${p.context}|${p.question}`));
      return Promise.resolve(pairs.map((p) => {
        const r = table[p.context]?.[p.question];
        return r === undefined
          ? { id: p.id, rating: -1, status: "unparsed" as const, raw: "hmm", judge: "scripted" }
          : { id: p.id, rating: r, status: "ok" as const, raw: String(r), judge: "scripted" };
      }));
    },
  };
  return { judge, asked };
}

/** The one-topic report fixture: run `g` with the text `REPORT`; t:0#2 in crux_pr with grade 2. */
async function fixture() {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  await writeOneTopicReport(ws, { run: "g", text: "REPORT", contextGrade: 2 });
  return { ws, dir };
}

Deno.test("judgeReports: hand-checked Cov/Den of a report and its context; re-run asks nothing", async () => {
  const { ws, dir } = await fixture();
  try {
    const { judge, asked } = scriptedJudge({ REPORT: { "Q1?": 4, "Q2?": 1 } });
    const r = await judgeReports(ws, { judge });
    // Only answerable questions are asked: Q1, Q2 (not Q3).
    assert.deepEqual(asked, ["REPORT|Q1?", "REPORT|Q2?"]);
    assert.equal(r.written, 2);
    // Cov(y) = 1/2; Den(y) = ((0.5/100) / (1/400))^0.5 = sqrt(2).
    // Context [t:0#2 (q1 = 3), x:0#0 (unjudged -> 0)]: Cov = 1/2, tokens 50 + 80 = 130,
    // Den = ((0.5/130) / (1/400))^0.5 = sqrt(200/130).
    assert.equal(r.runs.length, 1);
    const run = r.runs[0];
    assert.equal(run.coverage, 0.5);
    assert.ok(Math.abs(run.density - Math.SQRT2) < 1e-12);
    assert.equal(run.contextCoverage, 0.5);
    assert.ok(Math.abs(run.contextDensity - Math.sqrt(200 / 130)) < 1e-12);
    assert.equal(run.unjudgedContext, 1);
    // Stored in the measure table under the generated run, by this judge, with the
    // same values as returned, and the number of topics averaged.
    const stored = await ws.measures({ run: "g", topicId: "all" });
    assert.deepEqual(
      stored.map((m) => [m.measure, m.source, m.method, m.judge, m.value, m.topics]).sort(),
      [
        ["Cov", "context", "crux", judge.name, 0.5, 1],
        ["Cov", "report", "crux", judge.name, 0.5, 1],
        ["Den", "context", "crux", judge.name, run.contextDensity, 1],
        ["Den", "report", "crux", judge.name, run.density, 1],
      ],
    );
    // Each mean states its topic set: the one topic with an answerable sub-question at tau 3.
    assert.deepEqual(
      [...new Set(stored.map((m) => (m as { topicSet?: string }).topicSet))],
      ["answerable(tau=3,n=1)"],
    );
    // The rated report is recorded as such, once, and nothing else of this judge is.
    assert.deepEqual(
      await ws.query(
        "SELECT item_id, judge, item_kind, run FROM rated_items WHERE judge = $1 ORDER BY ALL",
        [judge.name],
      ),
      [{ itemId: "t:report:g", judge: judge.name, itemKind: "report", run: "g" }],
    );
    const again = await judgeReports(ws, { judge });
    assert.equal(asked.length, 2, "ratings already stored are not asked again");
    assert.deepEqual(again.runs, r.runs);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("judgeReports --judge-unjudged rates foreign context passages; a report with an unparsed rating has no value", async () => {
  const { ws, dir } = await fixture();
  try {
    const { judge, asked } = scriptedJudge({ REPORT: { "Q1?": 5 }, X0: { "Q1?": 0, "Q2?": 5 } });
    const r = await judgeReports(ws, { judge, judgeUnjudged: true, w: 1 });
    assert.deepEqual(asked.sort(), ["REPORT|Q1?", "REPORT|Q2?", "X0|Q1?", "X0|Q2?"]);
    const run = r.runs[0];
    assert.equal(run.unparsed, 1); // REPORT|Q2? had no rating -> -1
    // Its report has no Cov or Den (a missing rating is not a 0), nor has the run a mean.
    assert.deepEqual([run.missingRatings, run.missingTopics, run.topics], [1, ["t"], 0]);
    assert.ok(Number.isNaN(run.coverage) && Number.isNaN(run.density));
    assert.ok(
      !r.metrics.some((m) => m.measure.endsWith("_report") || m.measure.startsWith("Den_report")),
    );
    // Context now covers q1 (t:0#2 = 3) and q2 (x:0#0 = 5): Cov 1, Den (1/130)/(1/400) with w = 1.
    assert.equal(run.contextCoverage, 1);
    assert.ok(Math.abs(run.contextDensity - 400 / 130) < 1e-12);
    assert.equal(run.unjudgedContext, 0);
    assert.ok(r.metrics.some((m) => m.measure === "Den_context(w=1)"));
    // A re-run keeps scoring contexts with the construction matrix (human) plus the extra
    // ratings, and asks the unparsed pair again (and only it).
    const again = await judgeReports(ws, { judge, judgeUnjudged: true, w: 1 });
    assert.deepEqual(again.runs, r.runs);
    assert.deepEqual(asked.slice(4), ["REPORT|Q2?"]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("judgeReports at tau 4 stores Cov(tau=4): a plain Cov always means tau 3", async () => {
  const { ws, dir } = await fixture();
  try {
    const { judge } = scriptedJudge({ REPORT: { "Q1?": 4, "Q2?": 3 } });
    await judgeReports(ws, { judge, tau: 4, taus: [3] });
    const stored = await ws.measures({ run: "g", topicId: "all" });
    const cov = stored.filter((m) => m.name === "Cov")
      .map((m) => [m.measure, m.source, m.value]).sort();
    // Q1 and Q2 are answerable at 4 and at 3 (P* rates them 5 and 4). The report
    // answers Q1 at 4 and Q2 at 3: Cov(tau=4) = 1/2, Cov at tau 3 = 2/2.
    // The context [t:0#2 (Q1 rated 3), x:0#0 unrated]: 0 at tau 4.
    assert.deepEqual(cov, [
      ["Cov(tau=4)", "context", 0],
      ["Cov(tau=4)", "report", 0.5],
      ["Cov", "report", 1],
    ]);
    assert.deepEqual(
      stored.filter((m) => m.name === "Den").map((m) => [m.measure, m.source]).sort(),
      [["Den(tau=4)", "context"], ["Den(tau=4)", "report"], ["Den", "report"]],
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rateReports stores ratings and no measure; measureReports scores them without a call", async () => {
  const { ws, dir } = await fixture();
  try {
    const { judge, asked } = scriptedJudge({ REPORT: { "Q1?": 4, "Q2?": 1 } });
    const rated = await rateReports(ws, { judge });
    assert.deepEqual([rated.written, rated.failed, rated.unparsed, rated.asked], [2, 0, 0, 2]);
    assert.deepEqual(await ws.measures({ run: "g" }), []);
    const r = await measureReports(ws, { judge: judge.name });
    assert.equal(asked.length, 2, "measuring asks the judge nothing");
    // As by hand in the first test: Cov(y) 1/2, Den(y) sqrt(2), Cov(Z) 1/2, Den(Z) sqrt(200/130).
    assert.equal(r.runs[0].coverage, 0.5);
    assert.ok(Math.abs(r.runs[0].density - Math.SQRT2) < 1e-12);
    assert.equal(r.runs[0].contextCoverage, 0.5);
    assert.ok(Math.abs(r.runs[0].contextDensity - Math.sqrt(200 / 130)) < 1e-12);
    // Per topic and `all` for Cov and Den of the report and of its context.
    assert.equal(r.stored, 8);
    assert.equal((await ws.measures({ run: "g" })).length, 8);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("measureReports: a report without a stored token count has Cov but no Den, and the run no Den mean", async () => {
  const { ws, dir } = await fixture();
  try {
    await ws.upsert("generations", [{
      run: "g",
      topicId: "t",
      text: "REPORT",
      condition: "rag",
      backend: "extractive",
      contextIds: ["t:0#2", "x:0#0"],
      tokens: null,
    }]);
    const { judge } = scriptedJudge({ REPORT: { "Q1?": 4, "Q2?": 1 } });
    await rateReports(ws, { judge });
    const notes: string[] = [];
    await measureReports(ws, { judge: judge.name, onNote: (m) => notes.push(m) });
    const report = (await ws.measures({ run: "g" })).filter((m) => m.source === "report")
      .map((m) => [m.measure, m.topicId, m.value]).sort();
    // Cov(y) = 1/2 as by hand; no Den of the report, per topic or as the run's mean.
    assert.deepEqual(report, [["Cov", "all", 0.5], ["Cov", "t", 0.5]]);
    assert.ok(notes.some((n) => n.includes("t (the report has no token count)")), notes.join("\n"));
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
