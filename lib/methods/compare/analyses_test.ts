import assert from "node:assert/strict";
import { METHOD_HEADLINES } from "@lib/methods/mod.ts";
import { openWorkspace, type Workspace, writeStatistics } from "@lib/store/mod.ts";
import { kendallTau, runSignificance } from "@lib/metrics/mod.ts";
import { tableMarkdown } from "@lib/report/mod.ts";
import { computeStatistics, NOT_STORED } from "@lib/analysis/mod.ts";
import { methodAnalyses, type MethodAnalysesOptions } from "./analyses.ts";
import { methodMeasureRows, RUNS, TOPICS, VALUES } from "@lib/pipeline/testdata/method_measures.ts";

const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;

/** The analyses after the statistics stage: their statistics computed and stored first. */
async function afterStatistics(ws: Workspace, opts: MethodAnalysesOptions) {
  const asked = (await methodAnalyses(ws, opts)).flatMap((a) => a.statistics ?? []);
  await writeStatistics(ws, computeStatistics(asked));
  return await methodAnalyses(ws, opts);
}

Deno.test("methodAnalyses: system table, correlations, disagreements and significance from measures", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("measures", methodMeasureRows());
    const [system, corr, dis] = await afterStatistics(ws, {
      methods: METHOD_HEADLINES,
      trials: 2000,
      seed: 5,
    });
    assert.deepEqual([system.name, corr.name, dis.name], [
      "method_system",
      "method_correlations",
      "method_disagreements",
    ]);
    const t = system.table!;
    assert.deepEqual(t.rows.map((r) => r.label), [
      "1. direct",
      "2. oracle-context",
      "3. oracle-result",
      "4. rag-bm25",
    ]);
    for (const m of Object.keys(VALUES)) {
      t.rows.forEach((r, i) =>
        assert.ok(Math.abs((r.values[m] as number) - mean(VALUES[m][i])) < 1e-12)
      );
    }
    // A constant measure (keypoints on direct: 0.3 on every topic) has a zero-width interval.
    assert.equal(t.rows[0].values["keypoints:ci"], "[0.300, 0.300]");
    // rag-bm25 beats direct on every topic under crux (5 of 5): exact p 2/32, x6 by Holm > 0.05.
    assert.equal(t.rows[3].values["crux:sig"], "");
    assert.ok(
      t.notes!.some((n) => n.includes("missing methods (no rows in the measure table): subq")),
    );
    assert.ok(t.notes!.some((n) => n.startsWith("offline backends: lexical judge")));
    assert.match(tableMarkdown(t), /\*\*/); // best values bold
    const c = system.data.comparison.correlations.find((k) => k.a === "crux" && k.b === "nuggets")!;
    assert.equal(c.kendall, kendallTau(VALUES.crux.map(mean), VALUES.nuggets.map(mean)));
    assert.equal(corr.table!.rows.length, 3);
    // Before the compare stage stored its rows, a count names the stored scores it counts:
    // 2 methods x 4 runs x 5 topics; a run's topics, 3 methods x 5 topics.
    const runsCell = corr.cells!.find((c) => c.index === 0 && c.column === "runs")!;
    assert.equal(runsCell.inputs!.length, 2 * 4 * 5);
    const topicsCell = system.cells!.find((c) => c.index === 0 && c.column === "topics")!;
    assert.equal(topicsCell.inputs!.length, 3 * 5);
    assert.ok(topicsCell.inputs!.every((k) => k.run === "direct"));
    // The mean per-topic correlations' topics are their stored row's `topics`.
    const meanTopics = corr.cells!.find((c) => c.index === 0 && c.column === "topics")!;
    assert.deepEqual([meanTopics.key?.measure, meanTopics.shows, meanTopics.derived], [
      "mean_topic_kendall_tau_b",
      "topics",
      undefined,
    ]);
    // No stored comparison: the note counts the topics every method scored.
    assert.ok(
      corr.table!.notes!.includes(
        "Correlations over the 5 topics of the answers every compared method scored.",
      ),
    );
    assert.ok(corr.figure, "heatmap");
    assert.ok(dis.table!.rows.length > 0);
    const d = system.data.comparison.disagreements[0];
    assert.ok((d.aX - d.aY) * (d.bX - d.bY) < 0);
    // Seeded: the same numbers on a second call.
    const again = await methodAnalyses(ws, { methods: METHOD_HEADLINES, trials: 2000, seed: 5 });
    assert.deepEqual(again[0].data.significance, system.data.significance);
    assert.deepEqual(again.map((a) => a.name).slice(3), [
      "method_significance",
      "method_answer_scores",
    ]);
    const joined = again[4].table!;
    assert.equal(joined.rows.length, 4 * 5);
    assert.deepEqual(joined.rows[0], {
      label: "t1",
      values: { run: "direct", crux: 0.2, nuggets: 0.1, keypoints: 0.3 },
    });
    const sig = again[3].table!;
    assert.equal(sig.rows.length, 3 * 6);
    // The stored tests and intervals are those of runSignificance on the same scores.
    const reference = runSignificance(
      RUNS.flatMap((run, r) =>
        TOPICS.map((topicId, t) => ({ run, topicId, value: VALUES.crux[r][t] }))
      ),
      { trials: 2000, seed: 5 },
    );
    const pair = system.data.significance.crux.pairs[0];
    assert.deepEqual([pair.a, pair.b], [reference.pairs[0].a, reference.pairs[0].b]);
    assert.equal(sig.rows[0].values.rand, reference.pairs[0].randomizationP);
    assert.equal(sig.rows[0].values.randHolm, reference.pairs[0].randomizationHolm);
    assert.equal(sig.rows[0].values.t, reference.pairs[0].tP);
    assert.equal(sig.rows[0].values.tHolm, reference.pairs[0].tHolm);
    assert.equal(sig.rows[0].values.diff, reference.pairs[0].meanDifference);
    const ci = reference.intervals[3];
    assert.equal(t.rows[3].values["crux:ci"], `[${ci.lower.toFixed(3)}, ${ci.upper.toFixed(3)}]`);
    // Each test's cell names its stored statistic; the topics, the stored mean difference's pairs.
    const sigCells = again[3].cells!.filter((c) => c.index === 0);
    assert.deepEqual(
      sigCells.map((c) => c.statistic && JSON.parse(c.statistic).statistic),
      ["mean_diff", "mean_diff", "randomization_p", "holm_p", "paired_t_p", "holm_p"],
    );
    assert.deepEqual([sigCells[0].column, sigCells[0].shows], ["topics", "n"]);
    // With the judge-variance stage's rows, a judge_variance table follows.
    const v = (run: string, measure: string, value: number) => ({
      run,
      topicId: "all",
      measure,
      name: measure,
      cutoff: "",
      method: "judge-variance",
      judge: "lexical",
      source: "deterministic",
      value,
      topicSet: "answerable(tau=3,n=5)",
    });
    await ws.upsert("measures", [
      v("direct", "Cov_mean", 0.2),
      v("direct", "Cov_sd", 0),
      v("direct", "Cov_min", 0.2),
      v("direct", "Cov_max", 0.2),
      v("", "Cov_ranking_agreement", 1),
      v("", "samples", 3),
    ]);
    const withVariance = await methodAnalyses(ws, {
      methods: METHOD_HEADLINES,
      significance: false,
    });
    const jv = withVariance.find((a) => a.name === "judge_variance")!.table!;
    assert.deepEqual(jv.rows, [{
      label: "direct",
      values: { Cov_mean: 0.2, Cov_sd: 0, Cov_min: 0.2, Cov_max: 0.2 },
    }]);
    // Each of its cells names the stored judge-variance row it shows.
    const jvCells = withVariance.find((a) => a.name === "judge_variance")!.cells!;
    assert.equal(jvCells.length, 4);
    assert.deepEqual(jvCells[1], {
      row: "direct",
      index: 0,
      column: "Cov_sd",
      key: {
        run: "direct",
        source: "deterministic",
        judge: "lexical",
        measure: "Cov_sd",
        topicId: "all",
      },
    });
    assert.match(jv.notes![0], /deterministic/);
    assert.equal(jv.notes![1], "Means over the topic set answerable(tau=3,n=5).");
    assert.match(jv.notes![2], /Cov: share of samples ranking the runs as their means do 1\.00/);
  } finally {
    ws.close();
  }
});

Deno.test("methodAnalyses: one method present still gives the system table and names the others", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("measures", methodMeasureRows().filter((r) => r.method === "crux"));
    const [system, corr] = await methodAnalyses(ws, {
      methods: METHOD_HEADLINES,
      significance: false,
    });
    assert.deepEqual(system.table!.columns.map((c) => c.key), ["topics", "crux"]);
    assert.equal(corr.table!.rows.length, 0);
    assert.equal(corr.figure, undefined);
    const others = METHOD_HEADLINES.filter((h) => h.method !== "crux")
      .map((h) => `${h.method} (${h.measure})`).join(", ");
    assert.ok(
      system.table!.notes!.includes(`missing methods (no rows in the measure table): ${others}`),
    );
  } finally {
    ws.close();
  }
});

Deno.test("methodAnalyses: a run whose reports are all empty is left out of every table but the answer listing, and named", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("measures", methodMeasureRows());
    const gen = (run: string, topicId: string, text: string) => ({
      run,
      topicId,
      text,
      condition: run,
    });
    await ws.upsert("generations", [
      ...["t1", "t2", "t3", "t4", "t5"].map((t) => gen("direct", t, " ")),
      ...["oracle-context", "oracle-result", "rag-bm25"].map((r) => gen(r, "t1", "Some text.")),
    ]);
    const out = await afterStatistics(ws, { methods: METHOD_HEADLINES, trials: 200, seed: 5 });
    const byName = new Map(out.map((a) => [a.name, a]));
    const system = byName.get("method_system")!;
    assert.deepEqual(system.table!.rows.map((r) => r.label), [
      "1. oracle-context",
      "2. oracle-result",
      "3. rag-bm25",
    ]);
    // crux means 0.70, 0.86, 0.50 and keypoints means 0.48, 0.76, 0.48 (oracle-context and
    // rag-bm25 tie): 2 concordant pairs, 0 discordant, 3 pairs of which 1 tied in keypoints,
    // tau-b = 2 / sqrt(3 * 2) = 0.816. With direct (0.20, 0.30: lowest in both) it would be
    // 5 / sqrt(6 * 5) = 0.913.
    const c = system.data.comparison.correlations.find((k) =>
      k.a === "crux" && k.b === "keypoints"
    )!;
    assert.ok(Math.abs(c.kendall - 2 / Math.sqrt(6)) < 1e-12);
    for (const name of ["method_system", "method_correlations", "method_disagreements"]) {
      assert.ok(
        byName.get(name)!.table!.notes!.includes("direct left out: all 5 reports empty"),
        name,
      );
    }
    assert.ok(
      !Object.values(system.data.significance).some((s) =>
        s.pairs.some((p) => p.a === "direct" || p.b === "direct")
      ),
    );
    // The answer listing still shows every answer, direct's too, without the note.
    const listing = byName.get("method_answer_scores")!.table!;
    assert.equal(listing.rows.length, 4 * 5);
    assert.ok(!listing.notes!.some((n) => n.includes("left out: all")));
  } finally {
    ws.close();
  }
});

Deno.test("methodAnalyses: a lower-is-better headline with an open range is ranked reversed and drawn on its data's scale", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    // An error count 10 * (1 - Cov) per answer: lower is better, no upper bound.
    const crux = methodMeasureRows().filter((r) => r.method === "crux");
    const err = crux.filter((r) => r.measure === "Cov").map((r) => ({
      ...r,
      method: "err",
      measure: "errors",
      name: "errors",
      source: "",
      value: 10 * (1 - (r.value as number)),
    }));
    await ws.upsert("measures", [...crux, ...err]);
    const methods = [
      METHOD_HEADLINES.find((h) => h.method === "crux")!,
      {
        method: "err",
        measure: "errors",
        label: "Errors",
        range: [0, null],
        higherIsBetter: false,
      } as const,
    ];
    const [system, corr, dis] = await afterStatistics(ws, {
      methods,
      trials: 500,
      seed: 3,
      alpha: 0.5,
    });
    const t = system.table!;
    assert.equal(t.columns.find((c) => c.key === "err")!.direction, "lower");
    assert.equal(t.columns.find((c) => c.key === "crux")!.direction, "higher");
    // Values as stored: direct's Cov per topic 0.2 0.1 0.3 0.2 0.2, errors 8 9 7 8 8, mean 8.
    assert.ok(Math.abs((t.rows[0].values.err as number) - 8) < 1e-12);
    // The errors mirror Cov, so each run beats the same rows under both (5 topics: the
    // smallest exact p is 2/32, so a family level of 0.5 lets some pairs through).
    for (const r of t.rows) assert.equal(r.values["err:sig"], r.values["crux:sig"]);
    assert.ok(t.rows.some((r) => r.values["err:sig"] !== ""), "some run beats another");
    // Oriented: a lower error where Cov is higher is agreement (+1), not -1.
    const k = system.data.comparison.correlations[0];
    assert.deepEqual([k.a, k.b, k.kendall, k.spearman], ["crux", "err", 1, 1]);
    assert.ok(Math.abs(k.pearson - 1) < 1e-12);
    assert.equal(corr.table!.rows[0].values.kendall, 1);
    assert.equal(dis.table!.rows.length, 0);
    assert.ok(
      t.notes!.includes(
        "Errors: lower is better (correlations and disagreements rank it reversed)",
      ),
    );
    // The figure: Cov's panel spans its declared [0, 1]; the open range follows the data.
    const spec = JSON.stringify(system.figure);
    type Panel = {
      transform: { filter: { equal: string } }[];
      encoding: { y: { scale: unknown } };
    };
    const panels = (system.figure as unknown as { concat: Panel[] }).concat;
    const scale = (label: string) =>
      panels.find((p) => p.transform[0].filter.equal === label)!.encoding.y.scale;
    assert.deepEqual(scale("CRUX Cov"), { domain: [0, 1], nice: false });
    // The largest mean error is direct's 8.
    assert.deepEqual(scale("Errors"), { domain: [0, 8], nice: true });
    assert.ok(spec.includes("Errors"));
  } finally {
    ws.close();
  }
});

Deno.test("methodAnalyses: before the statistics stage the intervals, marks and tests are blank, with why", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("measures", methodMeasureRows());
    const out = await methodAnalyses(ws, { methods: METHOD_HEADLINES, trials: 200, seed: 5 });
    const system = out.find((a) => a.name === "method_system")!;
    const t = system.table!;
    // The means are there; every interval and mark is blank.
    assert.ok(Math.abs((t.rows[0].values.crux as number) - mean(VALUES.crux[0])) < 1e-12);
    for (const r of t.rows) {
      for (const m of Object.keys(VALUES)) {
        assert.equal(r.values[`${m}:ci`], null);
        assert.equal(r.values[`${m}:sig`], null);
      }
    }
    // 3 methods: 4 runs x 2 bounds and 6 pairs x 5 statistics each.
    assert.ok(
      t.notes!.includes(
        "114 statistics blank: not stored in the workspace (the statistics stage of `crux run` computes them from the stored measures).",
      ),
    );
    // What the table asks for: 114 distinct statistics.
    const asked = new Set(system.statistics!.map((r) => JSON.stringify(r.key)));
    assert.equal(asked.size, 114);
    const tests = out.find((a) => a.name === "method_significance")!;
    assert.equal(tests.table!.rows.length, 18);
    for (const r of tests.table!.rows) {
      assert.equal(r.values.topics, 5);
      for (const c of ["diff", "rand", "randHolm", "t", "tHolm", "mark"]) {
        assert.equal(r.values[c], null);
      }
    }
    // Before the statistics stage the topics count names the scores it counts.
    const count = tests.cells!.find((c) => c.index === 0 && c.column === "topics")!;
    assert.deepEqual([count.statistic, count.shows, count.inputs!.length], [
      undefined,
      undefined,
      10,
    ]);
    const blanks = tests.cells!.filter((c) => c.index === 0 && c.column !== "topics");
    assert.equal(blanks.length, 6);
    for (const c of blanks.slice(0, 5)) assert.equal(c.reason, NOT_STORED);
    assert.match(blanks[5].reason!, /^not stored/);
    const ciCells = system.cells!.filter((c) => c.column === "crux:ci");
    assert.equal(ciCells.length, 4);
    assert.ok(ciCells.every((c) => c.reason === NOT_STORED));
  } finally {
    ws.close();
  }
});
