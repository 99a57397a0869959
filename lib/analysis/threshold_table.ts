/**
 * How the answerability threshold tau changes the comparison of pipelines.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { table, type TableColumn, type TableRow } from "@lib/report/mod.ts";
import type { Analysis, CellSource, Condition, CruxData } from "./types.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import { conditionValues, datasetsOf, MAIN_MEASURES, meanKey } from "./_condition_scores.ts";
import { LABELS } from "./_scores.ts";
import { missingValueNotes } from "./_missing_values.ts";
import { meansTopicSetNote } from "./_topic_set_note.ts";
import { labelling } from "./_labels.ts";
import { cell, corrCell, fewSystemsNote, MIN_SYSTEMS, symbolNote } from "./_stats.ts";
import {
  notStoredNote,
  statisticCell,
  type StatisticInput,
  type TableStatistic,
  tableStatistic,
} from "./_statistic_cells.ts";

/** Options of {@linkcode thresholdTable}. */
export interface ThresholdTableOptions {
  /** Conditions; only pipelines are used. Default: `resolveConditions(data)`. */
  conditions?: readonly Condition[];
  /** Thresholds compared; the first is the reference of the Kendall tau columns. Default `[3, 5]`. */
  thresholds?: readonly number[];
  /** Density exponent. Default 0.5. */
  w?: number;
}

/** One row of {@linkcode ThresholdTableData}: a measure at one threshold on one dataset. */
export interface ThresholdStat {
  dataset: string;
  measure: string;
  threshold: number;
  /** Mean and sample standard deviation (n - 1) over pipelines of the pipeline means. */
  mean: number;
  sd: number;
  /** Kendall tau-b of the pipeline ranking at this threshold against the first threshold. */
  tau: number;
  pipelines: number;
}

/** Data of {@linkcode thresholdTable}. */
export interface ThresholdTableData {
  stats: ThresholdStat[];
  /** Pipeline means: dataset, threshold, pipeline, measure, value. */
  means: {
    dataset: string;
    threshold: number;
    condition: string;
    measure: string;
    value: number;
  }[];
}

/**
 * Compares answerability thresholds (CRUX uses tau = 3; tau = 5 keeps only
 * fully answered sub-questions): for each measure (Cov(Z), alpha-nDCG, Cov(y),
 * Den(Z), Den(y)) the mean and standard deviation across pipelines of the
 * pipeline means at each threshold, and Kendall's tau-b between the pipeline
 * rankings at each threshold and at the first. The answerable set A, the
 * subtopic judgments of alpha-nDCG and "covered" all use the threshold; P*
 * stays the one in the qrels.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param opts `thresholds` (default [3, 5]), `conditions`, `w` (0.5).
 * @returns `threshold_table`: statistics, pipeline means and the table.
 * @throws {RangeError} When fewer than two thresholds are given.
 * @example
 * ```ts
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { loadCruxData } from "@lib/analysis/mod.ts";
 * import { thresholdTable } from "@lib/analysis/mod.ts";
 * import { displayTable } from "@lib/report/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const data = await loadCruxData(ws);
 * displayTable(thresholdTable(data).table!);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function thresholdTable(
  data: CruxData,
  opts: ThresholdTableOptions = {},
): Analysis<ThresholdTableData> {
  const thresholds = opts.thresholds ?? CRUX_DEFAULTS.thresholds;
  if (thresholds.length < 2) {
    throw new RangeError(
      `Cannot compare thresholds [${thresholds.join(", ")}]: give at least two, e.g. [3, 5]`,
    );
  }
  const pipelines = (opts.conditions ?? resolveConditions(data)).filter((c) =>
    c.kind === "pipeline"
  );
  const datasets = datasetsOf(data);
  const scored = thresholds.map((t) =>
    conditionValues(data, pipelines, { tau: t, w: opts.w ?? CRUX_DEFAULTS.w })
  );
  const byThreshold = scored.map((x) => x.means);
  const stats: ThresholdStat[] = [];
  const means: ThresholdTableData["means"] = [];
  // The statistics across pipelines are stored by the statistics stage; the
  // table asks for them and reads them. Each needs every pipeline's mean: one
  // that the main table leaves blank leaves these cells blank too, never a subset.
  const shown = new Map<string, TableStatistic>();
  const multi = datasets.length > 1;
  for (const dataset of datasets) {
    const topicSet = multi ? `all:${dataset}` : "all";
    for (const measure of MAIN_MEASURES) {
      const inputs = (i: number) =>
        pipelines.map((c): StatisticInput => {
          const m = byThreshold[i].get(meanKey(dataset, c.name, measure));
          return {
            ref: scored[i].keys.get(meanKey("", c.name, measure)),
            value: m ? m.value : null,
            label: `${c.label} ${LABELS[measure]} at t = ${thresholds[i]}`,
            missing: scored[i].missing.get(meanKey(dataset, c.name, measure)),
          };
        });
      thresholds.forEach((threshold, i) => {
        const x = inputs(i);
        pipelines.forEach((c, j) => {
          const value = x[j].value;
          if (value !== null) means.push({ dataset, threshold, condition: c.name, measure, value });
        });
        const at = (what: string) => `${measure}\u0000${dataset}:${threshold}:${what}`;
        const mean = tableStatistic(data, { statistic: "mean", topicSet }, x);
        const sd = tableStatistic(data, { statistic: "sd", topicSet }, x);
        shown.set(at("mean"), mean).set(at("sd"), sd);
        const tau = i === 0
          ? undefined
          : tableStatistic(data, { statistic: "kendall_tau_b", topicSet }, inputs(0), x);
        if (tau) shown.set(at("tau"), tau);
        stats.push({
          dataset,
          measure,
          threshold,
          mean: mean.shown.value ?? NaN,
          sd: sd.shown.value ?? NaN,
          tau: tau?.shown.value ?? NaN,
          pipelines: mean.shown.value === null ? 0 : mean.shown.n,
        });
      });
    }
  }
  const columns: TableColumn[] = datasets.flatMap((d) =>
    thresholds.flatMap((t, i) => [
      { key: `${d}:${t}:mean`, label: `t=${t} mean`, group: d },
      { key: `${d}:${t}:sd`, label: `t=${t} sd`, group: d },
      ...(i === 0
        ? []
        : [{ key: `${d}:${t}:tau`, label: `Kendall τ (${thresholds[0]} vs ${t})`, group: d }]),
    ])
  );
  const rows: TableRow[] = MAIN_MEASURES.map((measure) => ({
    label: LABELS[measure],
    values: Object.fromEntries(
      stats.filter((s) => s.measure === measure).flatMap((s) => [
        [`${s.dataset}:${s.threshold}:mean`, cell(s.mean)],
        [`${s.dataset}:${s.threshold}:sd`, cell(s.sd)],
        ...(s.threshold === thresholds[0] ? [] : [[
          `${s.dataset}:${s.threshold}:tau`,
          Number.isNaN(s.tau) ? null : corrCell(s.tau, s.pipelines),
        ]]),
      ]),
    ),
  }));
  // Every cell is a statistic across pipelines: derived from its stored row, with
  // the stored means it uses, or blank with the reason.
  const cells: CellSource[] = stats.flatMap((s) => {
    const i = thresholds.indexOf(s.threshold);
    const row = LABELS[s.measure];
    const one = (what: string, derived: string): CellSource => {
      const column = `${s.dataset}:${s.threshold}:${what}`;
      const withheld = what === "tau" && s.pipelines < MIN_SYSTEMS
        ? `withheld: over ${s.pipelines} pipelines (fewer than ${MIN_SYSTEMS})`
        : undefined;
      return statisticCell(
        row,
        column,
        derived,
        shown.get(`${s.measure}\u0000${column}`)!,
        withheld,
      );
    };
    return [
      one("mean", "mean over pipelines"),
      one("sd", "sample sd over pipelines"),
      ...(i === 0 ? [] : [one("tau", "Kendall tau-b of the pipeline rankings")]),
    ];
  });
  const lab = labelling(data);
  return {
    name: "threshold_table",
    data: { stats, means },
    cells,
    statistics: [...shown.values()].flatMap((x) => (x.request ? [x.request] : [])),
    table: table({
      caption: `Answerability threshold t = ${
        thresholds.join(" vs ")
      }: mean and standard deviation across pipelines, and ranking agreement${lab.suffix}`,
      label: "tab:threshold",
      rowHeader: "Measure",
      columns,
      rows,
      notes: [
        ...lab.notes,
        `Over ${pipelines.length} pipelines; sd = sample standard deviation of the pipeline means; Kendall τ = tau-b between the pipeline rankings at the two thresholds.`,
        symbolNote(thresholds[0]).replace(/^t = \S+: /, "t: "),
        ...fewSystemsNote(
          stats.filter((s) => s.threshold !== thresholds[0]).map((s) => s.pipelines),
        ),
        ...topicSetNotes(thresholds, byThreshold, datasets.length),
        ...notStoredNote(shown.values()),
        // Pipelines without a value at a threshold: left out of its mean, sd and τ.
        ...thresholds.flatMap((th, i) =>
          missingValueNotes(
            pipelines,
            datasets,
            (d, c, m) => byThreshold[i].has(meanKey(d, c.name, m)),
            MAIN_MEASURES,
            (d, c, m) => scored[i].missing.get(meanKey(d, c.name, m)),
          ).map((n) => n.replace(/^No value of /, `t = ${th}: no value of `))
        ),
      ],
    }),
  };
}

/**
 * The topic set of the pipeline means at each threshold, as their stored rows
 * state it (see `meansTopicSetNote`); the stored topic counts where a row states none.
 */
function topicSetNotes(
  thresholds: readonly number[],
  byThreshold: readonly ReadonlyMap<string, { topics: number; topicSet?: string }>[],
  datasets: number,
): string[] {
  return thresholds.flatMap((t, i) => {
    const counts = [...byThreshold[i].values()].map((m) => m.topics);
    if (!counts.length) return [];
    const stated = meansTopicSetNote(
      byThreshold[i],
      datasets,
      counts,
      `t = ${t}: pipeline means over`,
    );
    if (stated[0]?.includes("the topic set")) return stated;
    const lo = Math.min(...counts);
    const hi = Math.max(...counts);
    return [
      `t = ${t}: pipeline means over ${
        lo === hi ? lo : `${lo} to ${hi}`
      } topics (those with a sub-question answerable at t).`,
    ];
  });
}
