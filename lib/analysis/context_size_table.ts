/**
 * How well context measures at several context sizes predict report quality.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { table, type TableColumn, type TableRow } from "@lib/report/mod.ts";
import type { Analysis, CellSource, Condition, CruxData } from "./types.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import {
  conditionValues,
  datasetsOf,
  meanKey,
  meanScores,
  type ScoreRecord,
  type StoredKey,
  storedMean,
  storedRows,
} from "./_condition_scores.ts";
import { type ContextKey, LABELS } from "./_scores.ts";
import { contextMeasure, contextSource } from "@lib/pipeline/mod.ts";
import { labelling } from "./_labels.ts";
import { corrCell, fewSystemsNote, symbolNote, tau } from "./_stats.ts";

/** Options of {@linkcode contextSizeTable}. */
export interface ContextSizeTableOptions {
  /** Conditions; pipelines with a retrieval run are used. Default: `resolveConditions(data)`. */
  conditions?: readonly Condition[];
  /** Context sizes; `oracle` = |P*| of the topic. Default `["oracle", 10, 20]`. */
  cutoffs?: readonly (number | "oracle")[];
  /** Context measures (rows). Default Cov(Z), alpha-nDCG, Recall, MAP, nDCG, Den(Z). */
  measures?: readonly ContextKey[];
  /** Answerability threshold. Default 3. */
  tau?: number;
  /** Density exponent. Default 0.5. */
  w?: number;
}

/**
 * Why a tau is undefined (NaN): fewer than two pipelines have both scores, or
 * the context measure, the report measure or both are constant across pipelines.
 */
export type UndefinedTauReason =
  | "too-few-pipelines"
  | "constant-context"
  | "constant-report"
  | "constant-both";

/** One Kendall tau of {@linkcode ContextSizeTableData}. */
export interface ContextSizeTau {
  dataset: string;
  cutoff: number | "oracle";
  context: string;
  report: string;
  /** Kendall tau-b; NaN when undefined (shown as `–`, explained in a note). */
  value: number;
  pipelines: number;
  /** Why `value` is NaN; absent when it is a number. */
  undefinedBecause?: UndefinedTauReason;
}

/** Data of {@linkcode contextSizeTable}. */
export interface ContextSizeTableData {
  taus: ContextSizeTau[];
  /** Pipeline means of every context measure at every cutoff, and of the report measures. */
  means: {
    dataset: string;
    cutoff: number | "oracle" | "report";
    condition: string;
    measure: string;
    value: number;
  }[];
}

const DEFAULT_MEASURES: ContextKey[] = ["covZ", "andcg", "recall", "map", "ndcg", "denZ"];
const REPORT = ["covY", "denY"] as const;
const cutoffLabel = (k: number | "oracle") => (k === "oracle" ? "top-|P*|" : `top-${k}`);

/**
 * Kendall's tau-b across pipelines between context measures of the top-k of
 * each pipeline's retrieval run (k = |P*|, 10, 20 by default) and the report
 * measures Cov(y) and Den(y) of the reports generated from its top-|P*|
 * context: which measure, at which depth, ranks pipelines as their reports
 * rank. Recall and MAP count the required passages (qrels grade 3) as
 * relevant; nDCG uses the graded qrels (3 required, 2 neutral, 1 redundant).
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param opts `cutoffs` (["oracle", 10, 20]), `measures`, `tau` (3), `w` (0.5), `conditions`.
 * @returns `context_size_table`: the taus, the pipeline means and the table.
 * @example
 * ```ts
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { loadCruxData } from "@lib/analysis/mod.ts";
 * import { contextSizeTable } from "@lib/analysis/mod.ts";
 * import { displayTable } from "@lib/report/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const data = await loadCruxData(ws);
 * displayTable(contextSizeTable(data).table!);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function contextSizeTable(
  data: CruxData,
  opts: ContextSizeTableOptions = {},
): Analysis<ContextSizeTableData> {
  const t = opts.tau ?? CRUX_DEFAULTS.tau;
  const w = opts.w ?? CRUX_DEFAULTS.w;
  const cutoffs = opts.cutoffs ?? CRUX_DEFAULTS.contextCutoffs;
  const keys = opts.measures ?? DEFAULT_MEASURES;
  const all = (opts.conditions ?? resolveConditions(data)).filter((c) => c.kind === "pipeline");
  const pipelines = all.filter((c) => c.run !== undefined);
  const datasets = datasetsOf(data);
  const dataset = new Map(data.topics.map((x) => [x.topicId, x.dataset]));
  const records = (
    rows: { run: string; topicId: string; measure: string; value: number }[],
  ): ScoreRecord[] =>
    rows.filter((r) => dataset.has(r.topicId)).map((r) => ({
      condition: r.run,
      dataset: dataset.get(r.topicId)!,
      topicId: r.topicId,
      measure: r.measure,
      value: r.value,
    }));
  // Values the measure step stored (source ranking(tau=t), the passage judge):
  // the run means it kept (a complete topic set), nothing scored here.
  const source = contextSource("ranking", t);
  const notStored = new Set<string>();
  // The stored key of each ranking mean, by cutoff and meanKey.
  const rankingKeys = new Map<string, StoredKey>();
  const rankingMeans = (cutoff: number | "oracle") => {
    const out = new Map<string, { value: number; topics: number }>();
    for (const c of pipelines) {
      for (const key of keys) {
        const measure = contextMeasure(key, cutoff, w);
        const at = { run: c.run!, source, judge: data.passageJudge, measure };
        for (const d of datasets) rankingKeys.set(`${cutoff}\u0000${meanKey(d, c.name, key)}`, at);
        const mean = storedMean(data, at);
        if (!mean) {
          notStored.add(c.label);
          continue;
        }
        if (datasets.length === 1) {
          out.set(meanKey(datasets[0], c.name, key), {
            value: mean.value,
            topics: mean.topics ?? 0,
          });
          continue;
        }
        const perTopic = records(
          storedRows(data, c.run!, source, data.passageJudge, measure)
            .map((r) => ({ run: c.name, topicId: r.topicId, measure: key, value: r.value })),
        );
        for (const [k, v] of meanScores(perTopic)) out.set(k, v);
      }
    }
    return out;
  };
  const reports = conditionValues(data, pipelines, { tau: t, w });
  const reportMeans = new Map(
    [...reports.means].filter(([k]) => k.endsWith("\u0000covY") || k.endsWith("\u0000denY")),
  );
  const taus: ContextSizeTau[] = [];
  const leftOut = new Map<string, Set<string>>();
  const means: ContextSizeTableData["means"] = [];
  const vector = (m: Map<string, { value: number }>, d: string, measure: string) =>
    pipelines.map((c) => m.get(meanKey(d, c.name, measure))?.value ?? NaN);
  for (const cutoff of cutoffs) {
    const ctxMeans = rankingMeans(cutoff);
    for (const [k, v] of ctxMeans) {
      const [d, condition, measure] = k.split("\u0000");
      means.push({ dataset: d, cutoff, condition, measure, value: v.value });
    }
    for (const d of datasets) {
      for (const context of keys) {
        const x = vector(ctxMeans, d, context);
        for (const report of REPORT) {
          const y = vector(reportMeans, d, report);
          const n = x.filter((v, i) => !Number.isNaN(v) && !Number.isNaN(y[i])).length;
          // Pipelines without one of the two values are left out of this τ, by name.
          pipelines.forEach((c, i) => {
            if (!Number.isNaN(x[i]) && !Number.isNaN(y[i])) return;
            const what = `${LABELS[Number.isNaN(x[i]) ? context : report]}`;
            const names = leftOut.get(what) ?? new Set<string>();
            leftOut.set(what, names.add(c.label));
          });
          const value = tau(x, y);
          const row: ContextSizeTau = { dataset: d, cutoff, context, report, value, pipelines: n };
          if (Number.isNaN(value)) row.undefinedBecause = undefinedBecause(x, y);
          taus.push(row);
        }
      }
    }
  }
  for (const [k, v] of reportMeans) {
    const [d, condition, measure] = k.split("\u0000");
    means.push({ dataset: d, cutoff: "report", condition, measure, value: v.value });
  }
  const col = (d: string, k: number | "oracle", r: string) => `${d}:${k}:${r}`;
  const multi = datasets.length > 1;
  const columns: TableColumn[] = datasets.flatMap((d) =>
    cutoffs.flatMap((k) =>
      REPORT.map((r) => ({
        key: col(d, k, r),
        label: LABELS[r],
        group: multi ? `${d} ${cutoffLabel(k)}` : cutoffLabel(k),
        direction: "higher" as const,
      }))
    )
  );
  const rows: TableRow[] = keys.map((context) => ({
    label: LABELS[context],
    values: Object.fromEntries(
      taus.filter((x) => x.context === context).map((
        x,
      ) => [
        col(x.dataset, x.cutoff, x.report),
        x.undefinedBecause?.startsWith("constant") ? null : corrCell(x.value, x.pipelines),
      ]),
    ),
  }));
  // Every cell is a Kendall τ: derived, with the stored means it pairs.
  const topicOf = (d: string) => multi ? `all:${d}` : "all";
  const cells: CellSource[] = taus.map((x) => {
    const row = LABELS[x.context];
    const column = col(x.dataset, x.cutoff, x.report);
    if (x.undefinedBecause?.startsWith("constant") || Number.isNaN(x.value)) {
      return { row, column, reason: `τ undefined (${x.undefinedBecause ?? "no pipelines"})` };
    }
    if (typeof corrCell(x.value, x.pipelines) !== "number") {
      return { row, column, reason: `τ not given: ${x.pipelines} pipeline(s) with both means` };
    }
    const inputs = pipelines.flatMap((c) => {
      const ctx = rankingKeys.get(`${x.cutoff}\u0000${meanKey(x.dataset, c.name, x.context)}`);
      const rep = reportMeans.get(meanKey(x.dataset, c.name, x.report))?.key;
      return ctx && rep
        ? [{ ...ctx, topicId: topicOf(x.dataset) }, {
          ...rep,
          topicId: topicOf(x.dataset),
        }]
        : [];
    });
    return { row, column, derived: "Kendall tau-b across pipelines", inputs };
  });
  const lab = labelling(data);
  const notes = [
    ...lab.notes,
    `Kendall τ (tau-b) across ${pipelines.length} pipelines between each context measure of the top-k and the reports' Cov(y) / Den(y); Den exponent w = ${w}.`,
    symbolNote(t),
    "Recall and MAP count the required passages (grade 3) as relevant; nDCG uses the graded qrels.",
  ];
  const constant = (x: ContextSizeTau) => !!x.undefinedBecause?.startsWith("constant");
  notes.push(...fewSystemsNote(taus.filter((x) => !constant(x)).map((x) => x.pipelines)));
  notes.push(...undefinedTauNotes(taus.filter(constant), multi));
  if (notStored.size) {
    notes.push(
      `No stored mean of the ranking (the measure step stored none, or its topic set is incomplete): ${
        [...notStored].join(", ")
      }.`,
    );
  }
  const skipped = all.filter((c) => c.run === undefined).map((c) => c.label);
  if (skipped.length) notes.push(`Left out (no retrieval run found): ${skipped.join(", ")}.`);
  for (const [what, names] of leftOut) {
    notes.push(
      `${what}: no value for ${[...names].join(", ")}; τ is over the other pipelines.`,
    );
  }
  return {
    name: "context_size_table",
    data: { taus, means },
    cells,
    table: table({
      caption:
        `Kendall τ between context measures at several context sizes and report measures${lab.suffix}`,
      label: "tab:context-size",
      rowHeader: "Context measure",
      columns,
      rows,
      notes,
    }),
  };
}

/** Why the tau of paired pipeline values is undefined (pairs with a NaN are skipped). */
function undefinedBecause(x: readonly number[], y: readonly number[]): UndefinedTauReason {
  const keep = x.flatMap((v, i) => (Number.isNaN(v) || Number.isNaN(y[i]) ? [] : [i]));
  if (keep.length < 2) return "too-few-pipelines";
  const constant = (v: readonly number[]) => keep.every((i) => v[i] === v[keep[0]]);
  if (constant(x)) return constant(y) ? "constant-both" : "constant-context";
  return constant(y) ? "constant-report" : "too-few-pipelines";
}

/** Notes explaining the `–` cells (undefined taus), naming the measures concerned. */
function undefinedTauNotes(taus: readonly ContextSizeTau[], multi: boolean): string[] {
  const constant = new Set<string>();
  let tooFew = false;
  for (const t of taus) {
    const on = multi ? ` on ${t.dataset}` : "";
    if (t.undefinedBecause === "too-few-pipelines") tooFew = true;
    if (t.undefinedBecause === "constant-context" || t.undefinedBecause === "constant-both") {
      constant.add(`${LABELS[t.context]} at ${cutoffLabel(t.cutoff)}${on}`);
    }
    if (t.undefinedBecause === "constant-report" || t.undefinedBecause === "constant-both") {
      constant.add(`${LABELS[t.report]}${on}`);
    }
  }
  const notes: string[] = [];
  if (constant.size) {
    notes.push(
      `– = τ undefined: the measure is constant across pipelines (${[...constant].join(", ")}).`,
    );
  }
  if (tooFew) notes.push("– = τ undefined: fewer than two pipelines have both scores.");
  return notes;
}
