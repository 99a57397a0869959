/**
 * Tables and figures of nugget evaluation: the per-run scores, vital against
 * okay support, and the agreement of nugget scores with CRUX report coverage.
 *
 * @module
 */
import { barChart, naturalCompare, scatterChart, table } from "@lib/report/mod.ts";
import {
  judgeSourceCounts,
  readEmptyGenerationRuns,
  readGeneratedTopics,
  readMeasures,
  readNuggetSupport,
  readStatistics,
  type StatisticKey,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import type { Analysis } from "@lib/analysis/mod.ts";
import { NUGGET_COUNT_MEASURES, type NuggetCountMeasure } from "@lib/nuggets/mod.ts";
import {
  NOT_STORED,
  storedReportCoverage,
  storedStatistic,
  tableCells,
} from "@lib/analysis/mod.ts";
import { runPalette } from "@lib/analysis/mod.ts";

/** Options of {@linkcode nuggetAnalyses}. */
export interface NuggetAnalysesOptions {
  /** Nugget origin (the measures' `source`). Default: the one with the most scored answers. */
  origin?: string;
  /** Assignment judge. Default: the one with the most scored answers for that origin. */
  judge?: string;
  /** Nugget measure compared with report coverage. Default `strict_vital`. */
  measure?: "strict_vital" | "vital" | "strict_all" | "all";
}

/** One run of the nugget score table. */
export interface NuggetRunRow {
  run: string;
  strictVital: number;
  vital: number;
  strictAll: number;
  all: number;
  /** Answers the stored strict vital mean is over (its `topics`); null without that mean. */
  answers: number | null;
  /** Mean support credit (support 1, partial 0.5) of vital and of okay nuggets. */
  vitalSupport: number | null;
  okaySupport: number | null;
  /** The run's stored `nugget_labels_failed`; null when not stored. */
  failedLabels: number | null;
  /** CRUX report coverage Cov(y) of the run, when judged. */
  reportCoverage: number | null;
}

/** The stored count of a run's failed nugget labels (`scoreNuggets`). */
const FAILED_LABELS = "nugget_labels_failed";
const OFFLINE = new Set(["lexical-nuggets", "offline"]);
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The nugget analyses of a workspace: `nugget_topics` (table: per topic, the
 * passages shown, nuggets created, vital, okay, failed and kept), `nugget_scores` (table: strict vital,
 * vital, strict all, all, answers, failed labels per run), `nugget_support`
 * (bar chart: support credit of vital and okay nuggets per run) and
 * `nugget_agreement` (scatter of the nugget measure against CRUX report coverage
 * Cov(y) across runs, with Kendall tau-b and Pearson r, and their table; a run
 * whose reports are all empty is left out of both and named). Kendall tau-b and
 * Pearson r are the statistics stage's stored rows (asked for in the analysis's
 * `statistics`), blank with their reason when not stored or undefined; with
 * fewer than 3 runs none is asked for. The fit line is drawn only over a defined tau. Notes
 * name the nugget origin and judge and say when the offline backends made them.
 * Returns an empty list when no nugget scores are stored.
 *
 * @param ws The workspace (after the nugget measure stage).
 * @param opts Origin, judge, measure.
 * @returns The analyses, for `saveAnalysis` or display.
 * @example
 * ```ts
 * import { saveAnalysis } from "@lib/analysis/mod.ts";
 * import { nuggetAnalyses } from "@lib/methods/nuggets/analyses.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * for (const a of await nuggetAnalyses(ws)) await saveAnalysis(a, await Deno.makeTempDir());
 * ```
 */
export async function nuggetAnalyses(
  ws: WorkspaceLike,
  opts: NuggetAnalysesOptions = {},
): Promise<Analysis[]> {
  const pairs = judgeSourceCounts(
    await readMeasures(ws, {
      method: "nuggets",
      source: opts.origin,
      judge: opts.judge,
      measure: "strict_vital",
      perTopic: true,
    }),
  );
  if (!pairs.length) return [];
  const { judge, source } = pairs[0];
  const measure = opts.measure ?? "strict_vital";
  const palette = await runPalette(ws);
  const means = await readMeasures(ws, {
    method: "nuggets",
    judge,
    source,
    topicId: "all",
    measure: ["strict_vital", "vital", "strict_all", "all", FAILED_LABELS],
  });
  const support = await readNuggetSupport(ws, source, judge);
  const { coverage, judge: covJudge } = await storedReportCoverage(ws);
  const covKey = (run: string) => ({
    run,
    source: "report",
    judge: covJudge ?? "",
    measure: "Cov",
    topicId: "all",
  });
  const nuggetKey = (run: string, m: string) => ({
    run,
    source,
    judge,
    measure: m,
    topicId: "all",
  });
  const runs = [...new Set(means.map((m) => m.run))].sort(naturalCompare);
  const rows: NuggetRunRow[] = runs.map((run) => {
    const v = (k: string) => Number(means.find((m) => m.run === run && m.measure === k)?.value);
    const s = (imp: string) => support.find((x) => x.run === run && x.importance === imp);
    return {
      run,
      strictVital: v("strict_vital"),
      vital: v("vital"),
      strictAll: v("strict_all"),
      all: v("all"),
      answers: means.find((m) => m.run === run && m.measure === "strict_vital")?.topics ?? null,
      vitalSupport: num(s("vital")?.credit),
      okaySupport: num(s("okay")?.credit),
      failedLabels: num(means.find((m) => m.run === run && m.measure === FAILED_LABELS)?.value),
      reportCoverage: num(coverage.get(run)),
    };
  });
  const offline = OFFLINE.has(judge) || source === "created:offline";
  const note = `nuggets ${source}, judge ${judge}${
    offline
      ? "; offline backends: salient-clause nuggets, frequency importance, lexical assignment"
      : ""
  }`;
  const scoreTable = table({
    caption: "Nugget scores per run (TREC 2024 RAG AutoNuggetizer measures)",
    label: "tab:nugget-scores",
    columns: [
      { key: "strictVital", label: "Strict vital", direction: "higher" },
      { key: "vital", label: "Vital", direction: "higher" },
      { key: "strictAll", label: "Strict all", direction: "higher" },
      { key: "all", label: "All", direction: "higher" },
      { key: "answers", label: "Answers", decimals: 0 },
      { key: "failed", label: "Failed labels", decimals: 0 },
    ],
    rows: rows.map((r) => ({
      label: r.run,
      values: {
        strictVital: r.strictVital,
        vital: r.vital,
        strictAll: r.strictAll,
        all: r.all,
        answers: r.answers,
        failed: r.failedLabels,
      },
    })),
    notes: [
      note,
      "failed labels count as not_support; an answer without vital nuggets scores 0 on the vital measures",
    ],
  });
  const bars = rows.flatMap((r) => [
    ...(r.vitalSupport === null
      ? []
      : [{ run: r.run, importance: "vital", support: r.vitalSupport }]),
    ...(r.okaySupport === null ? [] : [{ run: r.run, importance: "okay", support: r.okaySupport }]),
  ]);
  const out: Analysis[] = [
    await topicAnalysis(ws, source, note),
    {
      name: "nugget_scores",
      data: rows,
      table: scoreTable,
      // The four scores are the stored run means, answers the strict vital mean's
      // `topics`, failed labels the run's stored count.
      cells: tableCells(scoreTable, (row, column) => {
        const stored = ["strictVital", "vital", "strictAll", "all"] as const;
        const m = ["strict_vital", "vital", "strict_all", "all"][stored.indexOf(column as never)];
        if (m) return { key: nuggetKey(row.label, m), reason: `no ${m} mean stored` };
        return column === "answers"
          ? {
            key: nuggetKey(row.label, "strict_vital"),
            shows: "topics",
            reason: "no strict_vital mean stored",
          }
          : { key: nuggetKey(row.label, FAILED_LABELS), reason: `no ${FAILED_LABELS} stored` };
      }),
    },
    {
      name: "nugget_support",
      data: bars,
      figure: barChart(bars, {
        title: "Support of vital and okay nuggets per run",
        subtitle: "mean credit per nugget: support 1, partial support 0.5",
        note,
        x: "importance",
        color: "run",
        y: "support",
        yTitle: "support credit",
        yDomain: [0, 1],
        palette,
      }),
    },
  ];
  // A run whose reports are all empty scores 0 on both measures without
  // anything being measured, and alone can carry the correlation: left out, named.
  const emptyRuns = await readEmptyGenerationRuns(ws);
  const leftOut: string[] = [];
  for (const run of emptyRuns) {
    if (!rows.some((r) => r.run === run)) continue;
    const n = (await readGeneratedTopics(ws, run)).length;
    leftOut.push(`${run} left out: all ${n} report${n === 1 ? "" : "s"} empty`);
  }
  const paired = rows.filter((r) =>
    r.reportCoverage !== null && Number.isFinite(r[field(measure)]) && !emptyRuns.includes(r.run)
  );
  const enough = paired.length >= 3;
  // Kendall tau-b and Pearson r are asked of the statistics stage and read from their stored rows.
  const ref = (k: ReturnType<typeof nuggetKey>) => ({
    run: k.run,
    source: k.source,
    judge: k.judge,
    measure: k.measure,
  });
  const stored = enough ? await readStatistics(ws) : [];
  const asked = (statistic: "kendall_tau_b" | "pearson_r") => {
    const key: StatisticKey = {
      statistic,
      x: paired.map((p) => ref(nuggetKey(p.run, measure))),
      y: paired.map((p) => ref(covKey(p.run))),
      topicSet: "all",
    };
    return {
      request: {
        key,
        x: paired.map((p) => p[field(measure)]),
        y: paired.map((p) => p.reportCoverage!),
      },
      shown: enough ? storedStatistic({ statistics: stored }, key) : undefined,
    };
  };
  const [askedTau, askedR] = [asked("kendall_tau_b"), asked("pearson_r")];
  const tau = askedTau.shown?.value ?? null;
  const r = askedR.shown?.value ?? null;
  const fmt = (v: number | null) => (v === null || !Number.isFinite(v) ? "n/a" : v.toFixed(3));
  const points = paired.map((p) => ({
    run: p.run,
    coverage: p.reportCoverage!,
    nuggets: p[field(measure)],
  }));
  const agreement = table({
    caption: `Agreement of ${measure} with CRUX report coverage across runs`,
    label: "tab:nugget-agreement",
    rowHeader: "Measure",
    columns: [
      { key: "tau", label: "Kendall tau-b" },
      { key: "r", label: "Pearson r" },
      { key: "runs", label: "Runs", decimals: 0 },
    ],
    rows: [{ label: `${measure} vs Cov(y)`, values: { tau, r, runs: paired.length } }],
    notes: [
      note,
      ...leftOut,
      ...(enough ? [] : ["fewer than 3 runs with both scores: no correlation"]),
    ],
  });
  const inputs = paired.flatMap((p) => [nuggetKey(p.run, measure), covKey(p.run)]);
  const few = "fewer than 3 runs with both scores";
  const statisticCell = (a: typeof askedTau, derived: string) => ({
    derived,
    inputs,
    ...(a.shown ? { statistic: a.shown.id } : {}),
    reason: a.shown?.reason || few,
  });
  out.push({
    name: "nugget_agreement",
    data: { runs: points, kendallTau: tau, pearson: r, measure },
    table: agreement,
    cells: tableCells(
      agreement,
      (_row, column) =>
        column === "runs"
          ? {
            derived: "runs with both stored means",
            inputs,
            // The runs the stored Kendall tau-b is over, when stored.
            ...(askedTau.shown && askedTau.shown.reason !== NOT_STORED
              ? { statistic: askedTau.shown.id, shows: "n" as const }
              : {}),
          }
          : column === "tau"
          ? statisticCell(askedTau, "Kendall tau-b across runs")
          : statisticCell(askedR, "Pearson r across runs"),
    ),
    ...(enough ? { statistics: [askedTau.request, askedR.request] } : {}),
    ...(points.length
      ? {
        figure: scatterChart(points, {
          title: `Nugget ${measure} against CRUX report coverage`,
          subtitle: [
            `Kendall tau-b ${fmt(tau)}, Pearson r ${fmt(r)} over ${points.length} runs`,
            ...leftOut,
          ].filter(Boolean).join("; "),
          note,
          x: "coverage",
          y: "nuggets",
          color: "run",
          label: "run",
          // No line over fewer than 3 runs or a constant measure: nothing to fit.
          fit: tau !== null,
          xTitle: "CRUX report coverage Cov(y)",
          yTitle: measure,
          yLimits: [0, 1],
          palette,
        }),
      }
      : {}),
  });
  return out;
}

function field(m: string): "strictVital" | "vital" | "strictAll" | "all" {
  return m === "strict_vital"
    ? "strictVital"
    : m === "strict_all"
    ? "strictAll"
    : m as "vital" | "all";
}

/** One topic of the `nugget_topics` table: its stored counts, null when not stored. */
export interface NuggetTopicRow {
  topicId: string;
  passages: number | null;
  windows: number | null;
  nuggets: number | null;
  vital: number | null;
  okay: number | null;
  failed: number | null;
  kept: number | null;
}

/** The table's columns and the stored count measure each shows. */
const TOPIC_COLUMNS: readonly {
  key: Exclude<keyof NuggetTopicRow, "topicId">;
  measure: NuggetCountMeasure;
}[] = [
  { key: "passages", measure: "nugget_passages" },
  { key: "windows", measure: "nugget_windows" },
  { key: "nuggets", measure: "nugget_created" },
  { key: "vital", measure: "nugget_vital" },
  { key: "okay", measure: "nugget_okay" },
  { key: "failed", measure: "nugget_importance_failed" },
  { key: "kept", measure: "nugget_kept" },
];

async function topicAnalysis(ws: WorkspaceLike, origin: string, note: string): Promise<Analysis> {
  const stored = await readMeasures(ws, {
    method: "nuggets",
    run: "",
    judge: "",
    source: origin,
    measure: NUGGET_COUNT_MEASURES,
    hasValue: true,
  });
  const value = (topicId: string, measure: string) =>
    num(stored.find((r) => r.topicId === topicId && r.measure === measure)?.value);
  const topics = [...new Set(stored.map((r) => r.topicId))].filter((t) => t !== "all")
    .sort(naturalCompare);
  // A topic with a failed creation window has no nugget count: its list is incomplete.
  const failed = topics.filter((t) => (value(t, "nugget_windows_failed") ?? 0) > 0);
  const rows: NuggetTopicRow[] = topics.map((t) => ({
    topicId: t,
    ...Object.fromEntries(TOPIC_COLUMNS.map((c) => [c.key, value(t, c.measure)])),
  } as NuggetTopicRow));
  const counts = table({
    caption: "Nuggets per topic: passages shown, nuggets created and their importance",
    label: "tab:nugget-topics",
    rowHeader: "Topic",
    columns: TOPIC_COLUMNS.map(({ key: k }) => ({
      key: k,
      label: k[0].toUpperCase() + k.slice(1),
      decimals: 0,
    })),
    rows: rows.map((r) => ({
      label: r.topicId,
      values: Object.fromEntries(TOPIC_COLUMNS.map((c) => [c.key, r[c.key]])),
    })),
    notes: [
      note,
      "windows of 10 passages; imported nuggets show no passages",
      ...(failed.length
        ? [`nugget creation failed for a window of ${failed.join(", ")}: nuggets not counted`]
        : []),
    ],
  });
  const measureOf = new Map(TOPIC_COLUMNS.map((c) => [c.key as string, c.measure]));
  return {
    name: "nugget_topics",
    data: rows,
    table: counts,
    // Every count is a stored row of the measure stage.
    cells: tableCells(counts, (row, column) => ({
      key: {
        run: "",
        source: origin,
        judge: "",
        measure: measureOf.get(column)!,
        topicId: row.label,
      },
      reason: failed.includes(row.label)
        ? "nugget creation failed for a window of this topic: its nuggets are incomplete, not counted"
        : `no ${measureOf.get(column)} stored`,
    })),
  };
}
