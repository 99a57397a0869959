import assert from "node:assert/strict";
import {
  formatStatisticKey,
  openWorkspace,
  readNuggetTopicCounts,
  type Workspace,
  writeMeasures,
  writeStatistics,
} from "@lib/store/mod.ts";
import { nuggetCountRows } from "@lib/nuggets/mod.ts";
import { type Analysis, computeStatistics, NOT_STORED } from "@lib/analysis/mod.ts";
import { nuggetAnalyses, type NuggetRunRow } from "./analyses.ts";

/** The statistics stage's part for these analyses: their requests, computed and stored. */
async function storeAsked(ws: Workspace, analyses: Analysis[]): Promise<void> {
  await writeStatistics(ws, computeStatistics(analyses.flatMap((a) => a.statistics ?? [])));
}

/** A cell line of an analysis's table. */
const cell = (a: Analysis, column: string) => a.cells!.find((c) => c.column === column)!;

Deno.test("nuggetAnalyses: score table, vital/okay support and agreement with report coverage", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    assert.deepEqual(await nuggetAnalyses(ws), []);
    const cov = { a: 0.1, b: 0.2, c: 0.3, d: 0.4 };
    const sv = { a: 0.2, b: 0.1, c: 0.5, d: 0.6 };
    const rows = Object.keys(cov).flatMap((run) => [
      ...["strict_vital", "vital", "strict_all", "all"].map((m, i) => ({
        run,
        topicId: "all",
        measure: m,
        name: m,
        cutoff: "",
        method: "nuggets",
        judge: "lexical-nuggets",
        source: "created:offline",
        value: [0, 0.25, 0.5, 0.75][i] + sv[run as keyof typeof sv],
        topics: 2,
      })),
      {
        run,
        topicId: "t1",
        measure: "strict_vital",
        name: "strict_vital",
        cutoff: "",
        method: "nuggets",
        judge: "lexical-nuggets",
        source: "created:offline",
        value: 0,
        topics: null,
      },
      {
        run,
        topicId: "all",
        measure: "Cov",
        name: "Cov",
        cutoff: "",
        method: "crux",
        judge: "lexical",
        source: "report",
        value: cov[run as keyof typeof cov],
        topics: 2,
      },
    ]);
    await ws.upsert("measures", rows);
    // Run a's failed labels, as the measure stage stores them (1: ordinal 3 below);
    // b, c and d have none stored.
    await ws.upsert("measures", [{
      run: "a",
      topicId: "all",
      measure: "nugget_labels_failed",
      name: "nugget_labels_failed",
      cutoff: "",
      method: "nuggets",
      judge: "lexical-nuggets",
      source: "created:offline",
      value: 1,
      topics: 2,
    }]);
    // t2: 12 passages in 2 windows, the second failed; 2 nuggets from the first.
    await ws.upsert(
      "nugget_passages",
      Array.from({ length: 12 }, (_, i) => ({
        topicId: "t2",
        origin: "created:offline",
        ordinal: i + 1,
        passageId: `d${i + 1}`,
        windowIndex: i < 10 ? 0 : 1,
        text: "p",
        status: i < 10 ? "ok" : "failed",
      })),
    );
    await ws.upsert("nuggets", [
      ...[1, 2].map((ordinal) => ({
        topicId: "t2",
        origin: "created:offline",
        ordinal,
        text: `t2-${ordinal}`,
        importance: "vital",
        kept: true,
      })),
      {
        topicId: "t1",
        origin: "created:offline",
        ordinal: 4,
        text: "w",
        importance: "failed",
        kept: false,
      },
      {
        topicId: "t1",
        origin: "created:offline",
        ordinal: 1,
        text: "x",
        importance: "vital",
        kept: true,
      },
      {
        topicId: "t1",
        origin: "created:offline",
        ordinal: 2,
        text: "y",
        importance: "okay",
        kept: true,
      },
      {
        topicId: "t1",
        origin: "created:offline",
        ordinal: 3,
        text: "z",
        importance: "okay",
        kept: true,
      },
    ]);
    const label = (ordinal: number, label: string) => ({
      run: "a",
      topicId: "t1",
      origin: "created:offline",
      ordinal,
      judge: "lexical-nuggets",
      label,
    });
    await ws.upsert("nugget_assignments", [
      label(1, "support"),
      label(2, "partial_support"),
      label(3, "failed"),
    ]);
    // Before the statistics stage: tau is asked for, blank with its reason, and no line is fitted.
    const before = (await nuggetAnalyses(ws)).find((a) => a.name === "nugget_agreement")!;
    assert.deepEqual(before.table!.rows[0].values, { tau: null, r: null, runs: 4 });
    assert.equal(cell(before, "tau").reason, NOT_STORED);
    assert.equal(cell(before, "r").reason, NOT_STORED);
    assert.deepEqual(before.statistics!.map((s) => s.key.statistic), [
      "kendall_tau_b",
      "pearson_r",
    ]);
    assert.doesNotMatch(JSON.stringify(before.figure), /regression/);
    await storeAsked(ws, [before]);
    // The measure stage's count rows.
    await writeMeasures(
      ws,
      nuggetCountRows(await readNuggetTopicCounts(ws, "created:offline"), "created:offline"),
    );
    const [topics, scores, support, agreement] = await nuggetAnalyses(ws);
    // t1: 4 nuggets (1 vital, 2 okay, 1 whose importance failed, dropped), no passages
    // stored; t2's creation failed for a window: passages and windows only.
    assert.deepEqual(topics.data, [
      { topicId: "t1", passages: 0, windows: 0, nuggets: 4, vital: 1, okay: 2, failed: 1, kept: 3 },
      {
        topicId: "t2",
        passages: 12,
        windows: 2,
        nuggets: null,
        vital: null,
        okay: null,
        failed: null,
        kept: null,
      },
    ]);
    // Every count cell names its stored row; t2's nugget counts are blank with the reason.
    const topicCell = (row: string, column: string) =>
      topics.cells!.find((c) => c.row === row && c.column === column)!;
    assert.deepEqual(topicCell("t1", "kept").key, {
      run: "",
      source: "created:offline",
      judge: "",
      measure: "nugget_kept",
      topicId: "t1",
    });
    assert.equal(topicCell("t2", "passages").key?.measure, "nugget_passages");
    assert.match(topicCell("t2", "nuggets").reason!, /^nugget creation failed for a window/);
    assert.deepEqual(topics.cells!.filter((c) => c.derived), []);
    assert.ok(
      topics.table!.notes!.includes(
        "nugget creation failed for a window of t2: nuggets not counted",
      ),
    );
    assert.equal(scores.name, "nugget_scores");
    const a = (scores.data as NuggetRunRow[])[0];
    assert.deepEqual(
      [
        a.run,
        a.strictVital,
        a.vital,
        a.strictAll,
        a.all,
        a.answers,
        a.vitalSupport,
        a.okaySupport,
        a.failedLabels,
      ],
      ["a", 0.2, 0.45, 0.7, 0.95, 2, 1, 0.25, 1],
    );
    assert.equal(a.reportCoverage, 0.1);
    // Answers: the stored strict vital mean's `topics` (2), named by that row's key.
    const answers = scores.cells!.find((c) => c.row === "a" && c.column === "answers")!;
    // Failed labels: the run's stored count, blank where none is stored.
    const failed = (run: string) =>
      scores.cells!.find((c) => c.row === run && c.column === "failed")!;
    assert.deepEqual([failed("a").key?.measure, failed("a").key?.topicId, failed("a").derived], [
      "nugget_labels_failed",
      "all",
      undefined,
    ]);
    assert.equal((scores.data as NuggetRunRow[])[1].failedLabels, null);
    assert.equal(failed("b").reason, "no nugget_labels_failed stored");
    assert.deepEqual([answers.key?.measure, answers.key?.topicId, answers.shows], [
      "strict_vital",
      "all",
      "topics",
    ]);
    assert.match(scores.table!.notes!.join("\n"), /offline backends: salient-clause nuggets/);
    assert.deepEqual(support.data, [
      { run: "a", importance: "vital", support: 1 },
      { run: "a", importance: "okay", support: 0.25 },
    ]);
    assert.ok(support.figure);
    const g = agreement.data as { kendallTau: number; pearson: number };
    // 5 concordant pairs, 1 discordant (a, b): tau = 4/6; r = 0.08 / sqrt(0.05 * 0.17)
    assert.ok(Math.abs(g.kendallTau - 4 / 6) < 1e-12);
    // The shown tau is the stored row, named in its cell line.
    assert.equal(agreement.table!.rows[0].values.tau, g.kendallTau);
    assert.equal(
      cell(agreement, "tau").statistic,
      formatStatisticKey(agreement.statistics![0].key),
    );
    assert.equal(agreement.table!.rows[0].values.r, g.pearson);
    assert.equal(cell(agreement, "r").statistic, formatStatisticKey(agreement.statistics![1].key));
    assert.equal(cell(agreement, "tau").derived, "Kendall tau-b across runs");
    // The runs: the 4 pairs the stored tau is over (before it was stored, a count of the means).
    assert.equal(agreement.table!.rows[0].values.runs, 4);
    assert.deepEqual([cell(agreement, "runs").statistic, cell(agreement, "runs").shows], [
      cell(agreement, "tau").statistic,
      "n",
    ]);
    assert.deepEqual([cell(before, "runs").statistic, cell(before, "runs").shows], [
      undefined,
      undefined,
    ]);
    assert.match(JSON.stringify(agreement.figure), /regression/);
    assert.ok(Math.abs(g.pearson - 0.08 / Math.sqrt(0.05 * 0.17)) < 1e-9);
    assert.match(
      JSON.stringify(agreement.figure),
      /Kendall tau-b 0\.667, Pearson r 0\.868 over 4 runs/,
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("nuggetAnalyses: a run whose reports are all empty is left out of the agreement and named", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    // direct's reports are all empty: 0 on both measures, concordant with every other run.
    const cov = { a: 0.1, b: 0.2, c: 0.3, d: 0.4, direct: 0 };
    const sv = { a: 0.2, b: 0.1, c: 0.5, d: 0.6, direct: 0 };
    const row = (run: string, topicId: string, method: string, measure: string, value: number) => ({
      run,
      topicId,
      measure,
      name: measure,
      cutoff: "",
      method,
      judge: method === "crux" ? "lexical" : "lexical-nuggets",
      source: method === "crux" ? "report" : "created:offline",
      value,
      topics: topicId === "all" ? 2 : null,
    });
    await ws.upsert(
      "measures",
      Object.keys(cov).flatMap((run) => [
        row(run, "all", "nuggets", "strict_vital", sv[run as keyof typeof sv]),
        row(run, "t1", "nuggets", "strict_vital", sv[run as keyof typeof sv]),
        row(run, "all", "crux", "Cov", cov[run as keyof typeof cov]),
      ]),
    );
    await ws.upsert("generations", [
      { run: "direct", topicId: "t1", text: "", condition: "direct" },
      { run: "direct", topicId: "t2", text: " ", condition: "direct" },
      { run: "a", topicId: "t1", text: "Some text.", condition: "a" },
    ]);
    await storeAsked(ws, await nuggetAnalyses(ws));
    const out = await nuggetAnalyses(ws);
    // direct has both scores stored (0 and 0): only its empty reports leave it out.
    const direct = (out.find((a) => a.name === "nugget_scores")!.data as NuggetRunRow[])
      .find((r) => r.run === "direct")!;
    assert.deepEqual([direct.strictVital, direct.reportCoverage], [0, 0]);
    const agreement = out.find((a) => a.name === "nugget_agreement")!;
    const g = agreement.data as { kendallTau: number; runs: { run: string }[] };
    // Without direct: a-d as above, 5 concordant pairs and 1 discordant, tau = 4/6 (with
    // direct it would be 9 concordant and 1 discordant of 10, tau = 0.8).
    assert.ok(Math.abs(g.kendallTau - 4 / 6) < 1e-12);
    assert.deepEqual(g.runs.map((p) => p.run), ["a", "b", "c", "d"]);
    assert.deepEqual(agreement.table!.rows[0].values.runs, 4);
    assert.ok(agreement.table!.notes!.includes("direct left out: all 2 reports empty"));
    assert.match(JSON.stringify(agreement.figure), /direct left out: all 2 reports empty/);
    // The stored tau is over a-d only: direct is in none of its inputs.
    assert.equal(agreement.statistics![0].key.x.length, 4);
    assert.ok(!JSON.stringify(agreement.statistics![0].key).includes("direct"));
  } finally {
    ws.close();
  }
});

Deno.test("nuggetAnalyses: a constant measure leaves tau blank with the stored reason and draws no fit line", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    // strict_vital is 0 for every run (no vital nuggets), coverage varies; direct's
    // reports are all empty; a run with no coverage stored is not paired.
    const cov: Record<string, number> = { a: 0.1, b: 0.2, c: 0.3, direct: 0 };
    const row = (run: string, method: string, measure: string, value: number, topicId = "all") => ({
      run,
      topicId,
      measure,
      name: measure,
      cutoff: "",
      method,
      judge: method === "crux" ? "lexical" : "lexical-nuggets",
      source: method === "crux" ? "report" : "created:offline",
      value,
      topics: 2,
    });
    await ws.upsert("measures", [
      ...["a", "b", "c", "direct", "e"].flatMap((run) => [
        row(run, "nuggets", "strict_vital", 0),
        row(run, "nuggets", "strict_vital", 0, "t1"),
      ]),
      ...Object.entries(cov).map(([run, v]) => row(run, "crux", "Cov", v)),
    ]);
    await ws.upsert("generations", [
      { run: "direct", topicId: "t1", text: "", condition: "direct" },
    ]);
    await storeAsked(ws, await nuggetAnalyses(ws));
    const agreement = (await nuggetAnalyses(ws)).find((a) => a.name === "nugget_agreement")!;
    assert.deepEqual(agreement.table!.rows[0].values, { tau: null, r: null, runs: 3 });
    assert.equal(
      cell(agreement, "tau").reason,
      "undefined: the first vector is constant (0 for all 3)",
    );
    assert.ok(agreement.table!.notes!.includes("direct left out: all 1 report empty"));
    const figure = JSON.stringify(agreement.figure);
    assert.match(figure, /Kendall tau-b n\/a, Pearson r n\/a over 3/);
    assert.doesNotMatch(figure, /regression/);
  } finally {
    ws.close();
  }
});
