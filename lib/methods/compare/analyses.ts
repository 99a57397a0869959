/**
 * The four evaluation methods side by side, from the measure table.
 *
 * @module
 */
import type { MethodComparison } from "@lib/metrics/mod.ts";
import {
  type MethodHeadline,
  methodScores,
  type MethodScoresOptions,
  type PresentMethod,
} from "@lib/pipeline/mod.ts";
import { backendNote, type Backends, barChart, correlationHeatmap } from "@lib/report/mod.ts";
import {
  readEmptyGenerationRuns,
  readGeneratedTopics,
  readMeasures,
  readStatistics,
  type StoredStatistic,
  type Workspace,
} from "@lib/store/mod.ts";
import { type Analysis, NOT_STORED, type StatisticRequest } from "@lib/analysis/mod.ts";
import {
  answerTable,
  disagreementTable,
  methodCorrelationTable,
  significanceTable,
  systemTable,
} from "./tables.ts";
import { judgeVarianceTable } from "./judge_variance_table.ts";
import { orientedComparison } from "./oriented_comparison.ts";
import { comparisonTopicSetNote } from "./_topic_set_note.ts";
import { compareCells, type StoredCompareRow, varianceCells } from "./cells.ts";
import { storedComparison } from "./stored_comparison.ts";
import { methodSignificance, type StoredSignificance } from "./significance_statistics.ts";
import { runPalette } from "@lib/analysis/mod.ts";

/** Options of {@linkcode methodAnalyses}. */
export interface MethodAnalysesOptions extends MethodScoresOptions {
  /** Fewer runs make a correlation undefined. Default 3. */
  minRuns?: number;
  /** Add bootstrap intervals and significance marks to the system table. Default true. */
  significance?: boolean;
  /** Randomization trials. Default 10,000. */
  trials?: number;
  /** Bootstrap resamples. Default 1,000. */
  samples?: number;
  /** Family-wise level of the Holm-corrected marks. Default 0.05. */
  alpha?: number;
  /** Seed of the tests and intervals. Default 1. */
  seed?: number;
  /** Disagreements listed. Default 20. */
  disagreements?: number;
  /** Backends by role, for the note; the judges of the methods are always named. */
  backends?: Backends;
  /**
   * The stored statistics the intervals and tests are read from. Default: the
   * workspace's (those the statistics stage stored).
   */
  statistics?: readonly StoredStatistic[];
}

/** Data of the comparison analyses. */
export interface MethodAnalysesData {
  comparison: MethodComparison;
  present: PresentMethod[];
  missing: MethodHeadline[];
  /** Per method: stored bootstrap intervals per run and Holm-corrected tests per run pair. */
  significance: Record<string, StoredSignificance>;
}

/**
 * Reads every method's headline score per (run, topic) from `measures` and
 * compares them on the answers every method scored: `method_system` (one row
 * per run, one column per method with the best bold, 95% bootstrap intervals
 * over topics and the rows each run beats by a paired randomization test,
 * Holm-corrected across the run pairs of that method; plus a bar chart),
 * `method_correlations` (Kendall tau-b, Spearman, Pearson across runs and the
 * mean per-topic values; heatmap of Kendall tau-b) and `method_disagreements`
 * (topics where two methods order two runs oppositely, with both scores),
 * `method_significance` (every run pair per method: mean difference, raw and
 * Holm-adjusted randomization and t-test p-values), `method_answer_scores`
 * (every answer's score under each method, joined on (topic, run)) and, when the judge-variance
 * stage ran, `judge_variance` (each run's Cov spread over the judge samples).
 * The intervals and tests are statistics: the tables ask the statistics stage
 * for them (each analysis's `statistics`) and show the stored rows, blank with
 * the reason when none is stored.
 * Methods without rows are named in every table's notes, never dropped silently;
 * so is a run whose reports are all empty ("direct left out: all 49 reports
 * empty"), which every table but the answer listing leaves out.
 *
 * @param ws The workspace.
 * @param opts Methods (their headlines, in order: the method registry's), judges, runs, `minRuns` (3), significance settings, `disagreements` (20).
 * @returns The analyses, in display order (all share `data`).
 * @throws {RangeError} When a method has several judges and none is chosen.
 * @example
 * ```ts
 * import { saveAnalysis } from "@lib/analysis/mod.ts";
 * import { methodAnalyses } from "@lib/methods/compare/analyses.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const methods = [
 *   { method: "crux", measure: "Cov", label: "CRUX Cov", source: "report", range: [0, 1], higherIsBetter: true },
 *   { method: "keypoints", measure: "KPR", label: "KPR", range: [0, 1], higherIsBetter: true },
 * ] as const;
 * for (const a of await methodAnalyses(ws, { methods, seed: 7 })) await saveAnalysis(a, await Deno.makeTempDir());
 * ```
 */
export async function methodAnalyses(
  ws: Workspace,
  opts: MethodAnalysesOptions,
): Promise<Analysis<MethodAnalysesData>[]> {
  const all = await methodScores(ws, opts);
  // A run whose reports are all empty scores nothing: it is left out of the
  // means, intervals, tests and correlations, and named in every table's notes.
  const emptyRuns = new Set(await readEmptyGenerationRuns(ws));
  const emptyNotes: string[] = [];
  for (const run of emptyRuns) {
    if (!all.scores.some((s) => s.run === run)) continue;
    const n = (await readGeneratedTopics(ws, run)).length;
    emptyNotes.push(`${run} left out: all ${n} report${n === 1 ? "" : "s"} empty`);
  }
  const read = { ...all, scores: all.scores.filter((s) => !emptyRuns.has(s.run)) };
  const comparison = orientedComparison(read.scores, read.present, {
    minRuns: opts.minRuns,
    maxDisagreements: Infinity,
  });
  const label = (m: string) => read.present.find((p) => p.method === m)?.label ?? m;
  const significance: Record<string, StoredSignificance> = {};
  const requests: StatisticRequest[] = [];
  if (opts.significance ?? true) {
    const stored = opts.statistics ?? await readStatistics(ws);
    const settings = {
      trials: opts.trials ?? 10_000,
      samples: opts.samples ?? 1000,
      seed: opts.seed ?? 1,
      alpha: opts.alpha ?? 0.05,
    };
    for (const m of read.present) {
      // The same answers as the system table: topics every method scored for the run.
      const shared = read.scores.filter((s) =>
        s.method === m.method &&
        read.present.every((o) =>
          read.scores.some((x) =>
            x.method === o.method && x.run === s.run && x.topicId === s.topicId
          )
        )
      );
      if (shared.length) {
        const asked = methodSignificance(shared, m, read.present, settings, stored);
        significance[m.method] = asked.shown;
        requests.push(...asked.requests);
      }
    }
  }
  const data = { comparison, present: read.present, missing: read.missing, significance };
  const notes = [
    ...(read.present.length
      ? [
        backendNote({
          ...opts.backends,
          judge: [...new Set(read.present.map((p) => p.judge).filter((j) => j !== ""))].join(", "),
        }),
      ]
      : []),
    `judges: ${
      read.present.map((p) => `${p.label} ${p.judge || "no judge"}`).join("; ") || "none"
    }`,
    ...(read.missing.length
      ? [
        `missing methods (no rows in the measure table): ${
          read.missing.map((m) => `${m.method} (${m.measure})`).join(", ")
        }`,
      ]
      : []),
    ...(comparison.left
      ? [`${comparison.left} scores left out: not every method scored that answer`]
      : []),
    ...read.present.filter((m) => !m.higherIsBetter).map((m) =>
      `${m.label}: lower is better (correlations and disagreements rank it reversed)`
    ),
  ];
  // The answer listing shows every answer, those of empty reports too.
  const listed = [...notes];
  notes.push(...emptyNotes);
  const notStored = Object.values(significance).flatMap((s) => [
    ...s.intervals.flatMap((i) => [i.lower, i.upper]),
    ...s.pairs.flatMap((
      p,
    ) => [p.meanDifference, p.randomizationP, p.tP, p.randomizationHolm, p.tHolm]),
  ]).filter((v) => v.reason === NOT_STORED).length;
  const sigNotes = Object.keys(significance).length
    ? [
      ...notes,
      `95% CI: percentile bootstrap over topics (1,000 resamples unless set, seed ${
        opts.seed ?? 1
      }); ` +
      `"> rows": rows this run beats by a paired randomization test, Holm-corrected at ${
        opts.alpha ?? 0.05
      }`,
      ...(notStored
        ? [
          `${notStored} statistic${
            notStored > 1 ? "s" : ""
          } blank: not stored in the workspace (the statistics stage of \`crux run\` computes them from the stored measures).`,
        ]
        : []),
    ]
    : notes;
  const bars = comparison.system.flatMap((s) =>
    read.present.filter((m) => s.values[m.method] !== null)
      .map((m) => ({ measure: m.label, run: s.run, value: s.values[m.method]! }))
  );
  const sigMap = Object.keys(significance).length
    ? new Map(Object.entries(significance))
    : undefined;
  const storedMeans = await readMeasures(ws, {
    judgeSources: read.present.map((p) => ({ judge: p.judge, source: p.source })),
    measure: read.present.map((p) => p.measure),
    method: read.present.map((p) => p.method),
    topicId: "all",
    hasValue: true,
  });
  // The compare stage's rows: each method's mean per run over the answers every
  // method scored, and each pair's runs. Where stored, the tables show them,
  // when the stage compared these very methods (judges and measures alike): over
  // other methods, the answers every method scored are others.
  const storedRows: StoredCompareRow[] = (await readMeasures(ws, {
    method: "compare",
    topicId: "all",
  })).map((r) => ({ ...r, value: r.value ?? null, topics: r.topics ?? null }));
  const storedMethods = new Set(
    storedRows.filter((r) => r.source.startsWith("shared:")).map((r) =>
      [r.source.slice("shared:".length), r.judge, r.measure].join("\u0000")
    ),
  );
  const sameMethods = storedMethods.size === read.present.length &&
    read.present.every((p) => storedMethods.has([p.method, p.judge, p.measure].join("\u0000")));
  const compared = sameMethods ? storedRows : [];
  const cells = compareCells(
    comparison,
    read.present,
    read.scores,
    all.scores,
    sigMap,
    storedMeans.map((r) => ({ ...r, topics: r.topics ?? null })),
    compared,
  );
  const shown = storedComparison(comparison, read.present, compared);
  const system = systemTable(shown, read.present, sigMap, sigNotes);
  const out: Analysis<MethodAnalysesData>[] = [{
    name: "method_system",
    data,
    table: system,
    cells: cells.system(system),
    ...(requests.length ? { statistics: requests } : {}),
    ...(bars.length
      ? {
        // Each method its own panel: a closed declared range is its y scale,
        // an open one follows the data.
        figure: barChart(bars, {
          title: "Each method's headline score per run",
          note: notes[0],
          panels: true,
          yDomains: Object.fromEntries(
            read.present.flatMap((m) => {
              const [lo, hi] = m.range;
              return lo === null || hi === null ? [] : [[m.label, [lo, hi] as [number, number]]];
            }),
          ),
          palette: await runPalette(ws),
        }),
      }
      : {}),
  }];
  const pairs = comparison.correlations.filter((k) => Number.isFinite(k.kendall))
    .map((k) => ({ a: label(k.a), b: label(k.b), value: k.kendall }));
  const correlationTable = methodCorrelationTable(shown, label, [
    ...notes,
    await comparisonTopicSetNote(ws, comparison.topics),
  ]);
  out.push({
    name: "method_correlations",
    data,
    table: correlationTable,
    cells: cells.correlations(correlationTable),
    ...(pairs.length
      ? {
        figure: correlationHeatmap(pairs, {
          title: "Kendall tau-b between methods across runs",
          subtitle: `${comparison.runs.length} runs; undefined pairs left blank`,
          note: notes[0],
          valueTitle: "tau-b",
        }),
      }
      : {}),
  });
  const disagreements = disagreementTable(comparison, label, opts.disagreements ?? 20, [
    ...notes,
    `${comparison.disagreements.length} disagreements in all`,
  ]);
  out.push({
    name: "method_disagreements",
    data,
    table: disagreements,
    cells: cells.disagreements(disagreements),
  });
  if (sigMap) {
    const tests = significanceTable(sigMap, label, sigNotes);
    out.push({
      name: "method_significance",
      data,
      table: tests,
      cells: cells.significance(tests),
      statistics: requests,
    });
  }
  const answers = answerTable(all.scores, read.present, listed);
  out.push({ name: "method_answer_scores", data, table: answers, cells: cells.answers(answers) });
  const variance = await judgeVarianceTable(ws);
  if (variance) {
    out.push({
      name: "judge_variance",
      data,
      table: variance,
      cells: await varianceCells(ws, variance),
    });
  }
  return out;
}
