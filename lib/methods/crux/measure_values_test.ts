import assert from "node:assert/strict";
import { evaluate, type EvaluationResult, formatEvaluation } from "@lib/metrics/mod.ts";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import {
  CRUX_STAGES,
  evaluateAvailable,
  experimentStages,
  parseExperimentConfigWith,
  type RelevanceSource,
  runStages,
  workspaceJudged,
} from "@lib/pipeline/mod.ts";
import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
import { clearMeasureValues, measureValues } from "./measure_values.ts";
import { measureRuns } from "./measure_runs.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;

/** An experiment config named `test` from plain fields (paths relative to the repository). */
const testConfig = (fields: Record<string, unknown>) =>
  parseExperimentConfigWith(JSON.stringify({ name: "test", ...fields }), METHOD_REGISTRY, {
    file: "test-config.json",
    root: ROOT,
  });

const MEASURES = ["P@10", "nDCG@10", "Cov@10", "Den@oracle", "alpha_nDCG@oracle", "Cov@oracle"];

/** A temp workspace with the bundled sample, its selection (crux_pr, crux_div) and two BM25 runs. */
async function sampleWorkspace(): Promise<{ ws: Workspace; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "crux-measure-values-" });
  const config = testConfig({
    workspace: dir,
    dataset: { source: "sample", dir: "datasets/sample" },
    retrieve: [{ name: "bm25", k: 100 }, { name: "bm25-b0.75", k: 100, k1: 1.2, b: 0.75 }],
  });
  const ws = await openWorkspace(dir);
  await runStages(ws, await experimentStages(config, { methods: METHOD_REGISTRY }), {
    order: CRUX_STAGES,
    until: "retrieve",
  });
  return { ws, dir };
}

/** What `evaluate` gives for the workspace's current inputs (no reuse involved). */
async function fresh(
  ws: Workspace,
  runs: readonly string[],
  measures: readonly string[],
  opts: { source?: RelevanceSource; tau?: number } = {},
): Promise<EvaluationResult> {
  const { inputs } = await workspaceJudged(ws, { source: opts.source });
  const rows = (await Promise.all(runs.map((r) => ws.runRows(r)))).flat();
  return evaluate(rows, measures, inputs, { tau: opts.tau ?? 3 });
}

async function withSample(fn: (ws: Workspace) => Promise<void>): Promise<void> {
  const { ws, dir } = await sampleWorkspace();
  try {
    await fn(ws);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const FORMATS = ["table", "json", "csv"] as const;

function assertSamePrint(a: EvaluationResult, b: EvaluationResult): void {
  for (const format of FORMATS) {
    for (const perQuery of [false, true]) {
      assert.equal(
        formatEvaluation(a, format, { perQuery }),
        formatEvaluation(b, format, { perQuery }),
        `${format} perQuery=${perQuery}`,
      );
    }
  }
}

Deno.test("measureValues: the first call computes every measure, the second reuses them all and returns the same result as evaluate", async () => {
  await withSample(async (ws) => {
    const runs = ["bm25", "bm25-b0.75"];
    const first = await measureValues(ws, runs, MEASURES);
    assert.deepEqual([first.reused, first.computed], [0, MEASURES.length * 2]);
    assert.deepEqual(first.runs.map((r) => r.inputs), ["new", "new"]);
    const expected = await fresh(ws, runs, MEASURES);
    assert.deepEqual(first.result, expected);
    const stored = await ws.query<{ n: number }>(
      "SELECT count(*)::INTEGER AS n FROM memo WHERE kind = 'measure' AND json_extract_string(key, '$[1]') = $1",
      [first.judge],
    );
    assert.equal(stored[0].n, 2);

    const second = await measureValues(ws, runs, MEASURES);
    assert.deepEqual([second.reused, second.computed], [MEASURES.length * 2, 0]);
    assert.deepEqual(second.runs.map((r) => r.inputs), ["unchanged", "unchanged"]);
    assert.equal(second.runs[0].since.getTime(), first.runs[0].since.getTime());
    assert.deepEqual(second.result, first.result);
    assertSamePrint(second.result, expected);
    // Values survive the DOUBLE column bit for bit.
    assert.ok(second.result.perTopic.some((r) => r.value !== 0 && r.value !== 1));
    // The stored rows are the result's finite values, every one under the relevance source
    // (Cov and Den too: Den and @oracle cutoffs depend on P*, which the source decides).
    const rows = await ws.query<{ source: string; n: number }>(
      `SELECT source, count(*)::INTEGER AS n FROM measures WHERE run IN ('bm25', 'bm25-b0.75')
       GROUP BY source ORDER BY source`,
    );
    const finite = [...expected.perTopic, ...expected.aggregates].filter((r) =>
      Number.isFinite(r.value)
    );
    assert.deepEqual(rows, [{ source: "selection", n: finite.length }]);
    // measureRuns (the pipeline's measure stage) reuses the same values.
    const aggregates = await measureRuns(ws, ["bm25"], { measures: MEASURES });
    assert.deepEqual(aggregates, expected.aggregates.filter((r) => r.run === "bm25"));
  });
});

Deno.test("measureValues: topics left out of a measure come back with their reasons when reused", async () => {
  await withSample(async (ws) => {
    // One topic without answerable sub-questions at tau 5, another without selection qrels.
    await ws.exec("UPDATE ratings SET rating = least(rating, 4) WHERE topic_id = 'sample-02'");
    await ws.exec("DELETE FROM qrels WHERE topic_id = 'sample-03' AND name = 'crux_pr'");
    const measures = ["Cov@10", "Den@10", "P@10", "Cov@oracle", "Den@oracle"];
    const first = await measureValues(ws, ["bm25"], measures, { tau: 5 });
    const expected = await fresh(ws, ["bm25"], measures, { tau: 5 });
    assert.deepEqual(
      [...new Set(expected.skipped.map((s) => `${s.topicId}: ${s.reason}`))],
      [
        "sample-02: no answerable sub-question (|A| = 0)",
        "sample-03: no oracle set P* (the topic has no qrels)",
      ],
    );
    assert.deepEqual(first.result, expected);
    const second = await measureValues(ws, ["bm25"], measures, { tau: 5 });
    assert.deepEqual([second.reused, second.computed], [measures.length, 0]);
    assert.deepEqual(second.result, expected);
    assertSamePrint(second.result, expected);
  });
});

Deno.test("measureValues: a measure added to the list is the only one computed", async () => {
  await withSample(async (ws) => {
    await measureValues(ws, ["bm25"], ["P@10", "Cov@10"]);
    const more = ["nDCG@10", "P@10", "Cov@10", "Den@10"];
    const r = await measureValues(ws, ["bm25"], more);
    assert.deepEqual(r.runs[0].reused, ["P@10", "Cov@10"]);
    assert.deepEqual(r.runs[0].computed, ["nDCG@10", "Den@10"]);
    assert.deepEqual([r.reused, r.computed], [2, 2]);
    // Key order as requested, values as a fresh evaluation.
    assert.deepEqual(r.result.measures, more);
    assert.deepEqual(r.result, await fresh(ws, ["bm25"], more));
    // A measure repeated or written another way is one key.
    const again = await measureValues(ws, ["bm25"], ["P_10", "Cov(tau=3)@10", "P@10"]);
    assert.deepEqual([again.reused, again.computed], [2, 0]);
    assert.deepEqual(again.result.measures, ["P@10", "Cov@10"]);
  });
});

Deno.test("measureValues: one changed rating of the judge changes the fingerprint; everything is recomputed and Cov follows the rating", async () => {
  await withSample(async (ws) => {
    const measures = [...MEASURES, "Cov@1"];
    const first = await measureValues(ws, ["bm25"], measures);
    const [fp1] = await ws.query<{ fingerprint: string }>(
      "SELECT fingerprint FROM memo WHERE kind = 'measure' AND json_extract_string(key, '$[0]') = 'bm25'",
    );
    // The top passage of a topic gets 5 for a sub-question it did not answer.
    const topic = first.result.perTopic.find((r) => r.measure === "Cov@1" && r.value < 1)!
      .topicId;
    const [top] = await ws.query<{ docId: string }>(
      `SELECT doc_id FROM runs WHERE run = 'bm25' AND topic_id = $1 ORDER BY score DESC, doc_id DESC LIMIT 1`,
      [topic],
    );
    const [question] = await ws.query<{ questionId: string }>(
      `SELECT q.question_id FROM questions q WHERE q.topic_id = $1 AND q.kind = 'subquestion'
         AND NOT EXISTS (SELECT 1 FROM ratings r WHERE r.item_id = $2
           AND r.question_id = q.question_id AND r.rating >= 3)
       ORDER BY q.ordinal LIMIT 1`,
      [topic, top.docId],
    );
    assert.ok(question, `topic ${topic} has a sub-question its top passage does not answer`);
    await ws.upsert("ratings", [{
      topicId: topic,
      itemId: top.docId,
      questionId: question.questionId,
      rating: 5,
      judge: first.judge,
    }]);
    const second = await measureValues(ws, ["bm25"], measures);
    const [fp2] = await ws.query<{ fingerprint: string }>(
      "SELECT fingerprint FROM memo WHERE kind = 'measure' AND json_extract_string(key, '$[0]') = 'bm25'",
    );
    assert.notEqual(fp2.fingerprint, fp1.fingerprint);
    assert.deepEqual([second.reused, second.computed], [0, measures.length]);
    assert.equal(second.runs[0].inputs, "changed");
    assert.deepEqual(second.result, await fresh(ws, ["bm25"], measures));
    const cov = (r: EvaluationResult, t: string) =>
      r.perTopic.find((x) => x.measure === "Cov@1" && x.topicId === t)?.value;
    assert.ok(cov(second.result, topic)! > cov(first.result, topic)!, "Cov@1 rises");
    for (const t of new Set(first.result.perTopic.map((r) => r.topicId))) {
      if (t !== topic) assert.equal(cov(second.result, t), cov(first.result, t), t);
    }
    // Relevance comes from the selection's qrels, which the rating does not change.
    const p10 = (r: EvaluationResult) => r.aggregates.find((x) => x.measure === "P@10")!.value;
    assert.equal(p10(second.result), p10(first.result));
    // Stored rows are the new values, none left over from the old ones.
    const stored = await ws.query<{ value: number }>(
      "SELECT value FROM measures WHERE run = 'bm25' AND topic_id = $1 AND measure = 'Cov@1'",
      [topic],
    );
    assert.deepEqual(stored.map((s) => s.value), [cov(second.result, topic)]);
    // Changing it back restores the first fingerprint's values, computed again.
    await ws.exec(
      "UPDATE ratings SET rating = 0 WHERE item_id = $1 AND question_id = $2 AND judge = $3",
      [top.docId, question.questionId, first.judge],
    );
    const third = await measureValues(ws, ["bm25"], measures);
    assert.equal(third.computed, measures.length);
    assert.deepEqual(third.result, await fresh(ws, ["bm25"], measures));
  });
});

Deno.test("measureValues: relevance from the ratings at tau 4 and at tau 3 is stored apart and both are reused", async () => {
  await withSample(async (ws) => {
    const measures = ["P@10", "nDCG@10", "Cov@10"];
    const at3 = await measureValues(ws, ["bm25"], measures, { source: "judgments" });
    const at4 = await measureValues(ws, ["bm25"], measures, { source: "judgments", tau: 4 });
    assert.deepEqual([at3.label, at4.label], ["judgments", "judgments(tau=4)"]);
    assert.deepEqual([at3.computed, at4.computed], [3, 3]);
    assert.deepEqual(at4.result.measures, ["P@10", "nDCG@10", "Cov(tau=4)@10"]);
    const p = (r: EvaluationResult) => r.aggregates.find((x) => x.measure === "P@10")!.value;
    assert.notEqual(p(at3.result), p(at4.result));
    const sources = await ws.query<{ source: string; measure: string }>(
      `SELECT DISTINCT source, measure FROM measures WHERE run = 'bm25' ORDER BY ALL`,
    );
    assert.deepEqual(sources.map((s) => `${s.source} ${s.measure}`), [
      "judgments Cov@10",
      "judgments P@10",
      "judgments nDCG@10",
      "judgments(tau=4) Cov(tau=4)@10",
      "judgments(tau=4) P@10",
      "judgments(tau=4) nDCG@10",
    ]);
    const again3 = await measureValues(ws, ["bm25"], measures, { source: "judgments" });
    const again4 = await measureValues(ws, ["bm25"], measures, { source: "judgments", tau: 4 });
    assert.deepEqual([again3.reused, again4.reused], [3, 3]);
    assert.deepEqual(again3.result, await fresh(ws, ["bm25"], measures, { source: "judgments" }));
    assert.deepEqual(
      again4.result,
      await fresh(ws, ["bm25"], measures, { source: "judgments", tau: 4 }),
    );
    // Without selection qrels, relevance under "selection" also comes from the ratings at
    // tau: values stored at tau 3 are not taken for tau 4.
    await ws.exec("DELETE FROM qrels");
    const sel3 = await measureValues(ws, ["bm25"], measures);
    const sel4 = await measureValues(ws, ["bm25"], measures, { tau: 4 });
    assert.deepEqual([sel3.computed, sel4.computed], [3, 3]);
    assert.notEqual(p(sel3.result), p(sel4.result));
    assert.deepEqual(sel4.result, await fresh(ws, ["bm25"], measures, { tau: 4 }));
  });
});

Deno.test("measureValues: Den and Cov@oracle computed with the selection's P* are kept apart from those of relevance from the ratings", async () => {
  await withSample(async (ws) => {
    // A topic without selection qrels has no P* under the selection, one under the ratings.
    await ws.exec("DELETE FROM qrels WHERE topic_id = 'sample-03' AND name = 'crux_pr'");
    const measures = ["Den@oracle", "Cov@oracle", "Cov@10"];
    const selection = await measureValues(ws, ["bm25"], measures);
    const judgments = await measureValues(ws, ["bm25"], measures, { source: "judgments" });
    assert.deepEqual([judgments.reused, judgments.computed], [0, 3]);
    const den = (r: EvaluationResult) =>
      r.aggregates.find((x) => x.measure === "Den@oracle")!.value;
    assert.notEqual(den(selection.result), den(judgments.result), "P* differs between sources");
    assert.deepEqual(
      judgments.result,
      await fresh(ws, ["bm25"], measures, { source: "judgments" }),
    );
    // Both are stored, each under its source: going back reuses the selection's values.
    const back = await measureValues(ws, ["bm25"], measures);
    assert.deepEqual([back.reused, back.computed], [3, 0]);
    assert.deepEqual(back.result, selection.result);
    // sample-03 has a P* (and a Cov@oracle row) under the ratings only.
    const rows = await ws.query<{ source: string }>(
      "SELECT source FROM measures WHERE run = 'bm25' AND topic_id = 'sample-03' AND measure = 'Cov@oracle'",
    );
    assert.deepEqual(rows, [{ source: "judgments" }]);
    assert.equal(
      (await measureValues(ws, ["bm25"], measures, { source: "judgments" })).reused,
      3,
    );
  });
});

Deno.test("measureValues: density without token counts is left out with skip, not stored, and tried again", async () => {
  await withSample(async (ws) => {
    const measures = ["Cov@10", "Den@10", "P@10"];
    const [{ docId }] = await ws.query<{ docId: string }>(
      "SELECT doc_id FROM runs WHERE run = 'bm25' ORDER BY topic_id, score DESC, doc_id DESC LIMIT 1",
    );
    await ws.exec("UPDATE passages SET tokens = NULL WHERE passage_id = $1", [docId]);
    await assert.rejects(() => measureValues(ws, ["bm25"], measures), /has no token count/);
    assert.equal(await ws.count("measures"), 0, "nothing is written when evaluation fails");
    const notes: string[] = [];
    const first = await measureValues(ws, ["bm25"], measures, {
      missingTokens: "skip",
      onNote: (m) => notes.push(m),
    });
    assert.deepEqual(first.runs[0].leftOut, ["Den@10"]);
    assert.match(notes.join("\n"), new RegExp(`Den@10 not measured for bm25: passage "${docId}"`));
    const { inputs } = await workspaceJudged(ws);
    const expected = evaluateAvailable(await ws.runRows("bm25"), measures, inputs);
    assert.deepEqual(first.result, expected.result);
    const again = await measureValues(ws, ["bm25"], measures, { missingTokens: "skip" });
    assert.deepEqual([again.reused, again.computed, again.runs[0].leftOut], [2, 0, ["Den@10"]]);
    assert.deepEqual(again.result, expected.result);
    // Token counts back: the fingerprint changes and density is measured.
    await ws.exec("UPDATE passages SET tokens = 7 WHERE passage_id = $1", [docId]);
    const counted = await measureValues(ws, ["bm25"], measures, { missingTokens: "skip" });
    assert.deepEqual([counted.reused, counted.computed], [0, 3]);
    assert.deepEqual(counted.result, await fresh(ws, ["bm25"], measures));
  });
});

Deno.test("measureValues: a changed run row, a changed qrel or token count changes the fingerprint", async () => {
  await withSample(async (ws) => {
    const measures = ["P@10", "Cov@10"];
    const fingerprint = async () =>
      (await ws.query<{ fingerprint: string }>(
        "SELECT fingerprint FROM memo WHERE kind = 'measure' AND json_extract_string(key, '$[0]') = 'bm25'",
      ))[0].fingerprint;
    await measureValues(ws, ["bm25"], measures);
    const seen = new Set([await fingerprint()]);
    const edits = [
      "UPDATE runs SET score = score + 1 WHERE run = 'bm25' AND rank = 1 AND topic_id = 'sample-01'",
      "UPDATE qrels SET grade = 1 WHERE (name, topic_id, doc_id) IN (SELECT name, topic_id, doc_id FROM qrels WHERE name = 'crux_pr' AND grade = 3 ORDER BY ALL LIMIT 1)",
      "UPDATE passages SET tokens = tokens + 1 WHERE passage_id = (SELECT min(passage_id) FROM passages)",
      "INSERT INTO runs SELECT * FROM runs WHERE run = 'bm25' AND rank = 1 AND topic_id = 'sample-01'",
    ];
    for (const sql of edits) {
      assert.ok((await ws.exec(sql)) > 0, sql);
      const r = await measureValues(ws, ["bm25"], measures);
      assert.equal(r.computed, 2, sql);
      assert.deepEqual(r.result, await fresh(ws, ["bm25"], measures), sql);
      seen.add(await fingerprint());
    }
    assert.equal(seen.size, edits.length + 1);
    // Another run's rows or a rating of a summary do not matter.
    await ws.exec("UPDATE runs SET score = score + 1 WHERE run = 'bm25-b0.75'");
    assert.ok(
      await ws.exec(
        `UPDATE ratings SET rating = 5 - rating WHERE item_id IN
           (SELECT item_id FROM rated_items WHERE item_kind <> 'passage')`,
      ) > 0,
    );
    assert.equal((await measureValues(ws, ["bm25"], measures)).reused, 2);
  });
});

Deno.test("clearMeasureValues: one run's values and fingerprints go, other runs and report rows stay", async () => {
  await withSample(async (ws) => {
    const runs = ["bm25", "bm25-b0.75"];
    await measureValues(ws, runs, ["P@10", "Cov@10"]);
    await ws.upsert("measures", [{
      run: "bm25",
      topicId: "all",
      measure: "Cov",
      name: "Cov",
      cutoff: "",
      method: "crux",
      judge: "lexical",
      source: "report",
      value: 0.5,
      topics: 1,
    }]);
    await clearMeasureValues(ws, "bm25");
    const left = await ws.query<{ run: string; source: string; n: number }>(
      "SELECT run, source, count(*)::INTEGER AS n FROM measures GROUP BY ALL ORDER BY ALL",
    );
    assert.deepEqual(left.map((r) => [r.run, r.source]), [
      ["bm25", "report"],
      ["bm25-b0.75", "selection"],
    ]);
    assert.deepEqual(
      (await ws.query<{ run: string }>(
        `SELECT json_extract_string(key, '$[0]') AS run FROM memo WHERE kind = 'measure'
         ORDER BY run`,
      )).map((r) => r.run),
      ["bm25-b0.75"],
    );
    const again = await measureValues(ws, runs, ["P@10", "Cov@10"]);
    assert.deepEqual(again.runs.map((r) => [r.run, r.inputs, r.reused.length]), [
      ["bm25", "new", 0],
      ["bm25-b0.75", "unchanged", 2],
    ]);
    assert.deepEqual(again.result, await fresh(ws, runs, ["P@10", "Cov@10"]));
  });
});
