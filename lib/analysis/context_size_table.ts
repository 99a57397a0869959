/**
 * How well context measures at several context sizes predict report quality.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { meanTopicId } from "@lib/store/mod.ts";
import { table, type TableColumn, type TableRow } from "@lib/report/mod.ts";
import type { Analysis, CellSource, Condition, CruxData } from "./types.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import {
  conditionValues,
  datasetsOf,
  meanKey,
  type StoredKey,
  storedMean,
} from "./_condition_scores.ts";
import { type ContextKey, LABELS } from "./_scores.ts";
import { contextMeasure, contextSource } from "@lib/pipeline/mod.ts";
import { labelling } from "./_labels.ts";
import { corrCell, fewSystemsNote, MIN_SYSTEMS, symbolNote } from "./_stats.ts";
import {
  notStoredNote,
  statisticCell,
  type StatisticInput,
  type TableStatistic,
  tableStatistic,
} from "./_statistic_cells.ts";
import { NOT_STORED } from "./stored_statistic.ts";

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
  /** Why `value` is NaN, when it is undefined on its inputs. */
  undefinedBecause?: UndefinedTauReason;
  /** Why `value` is NaN, as stored (or that it is not stored). */
  reason?: string;
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
        if (!storedMean(data, at)) {
          notStored.add(c.label);
          continue;
        }
        // One dataset of several: its own stored mean, beside the run mean.
        for (const d of datasets) {
          const mean = storedMean(data, at, datasets.length === 1 ? "all" : meanTopicId.of(d));
          if (mean) {
            out.set(meanKey(d, c.name, key), { value: mean.value, topics: mean.topics ?? 0 });
          }
        }
      }
    }
    return out;
  };
  const reports = conditionValues(data, pipelines, { tau: t, w });
  const reportMeans = new Map(
    [...reports.means].filter(([k]) => k.endsWith("\u0000covY") || k.endsWith("\u0000denY")),
  );
  const col = (d: string, k: number | "oracle", r: string) => `${d}:${k}:${r}`;
  const taus: ContextSizeTau[] = [];
  const means: ContextSizeTableData["means"] = [];
  // The taus are stored by the statistics stage; the table asks for them and reads them.
  const shown = new Map<string, TableStatistic>();
  for (const cutoff of cutoffs) {
    const ctxMeans = rankingMeans(cutoff);
    for (const [k, v] of ctxMeans) {
      const [d, condition, measure] = k.split("\u0000");
      means.push({ dataset: d, cutoff, condition, measure, value: v.value });
    }
    for (const d of datasets) {
      const topicSet = datasets.length > 1 ? `all:${d}` : "all";
      for (const context of keys) {
        const x = pipelines.map((c): StatisticInput => {
          const mean = ctxMeans.get(meanKey(d, c.name, context));
          return {
            ref: rankingKeys.get(`${cutoff}\u0000${meanKey(d, c.name, context)}`),
            value: mean ? mean.value : null,
            label: `${c.label} ${LABELS[context]} at ${cutoffLabel(cutoff)}`,
            missing: "no stored mean of the ranking (not measured, or its topic set is incomplete)",
          };
        });
        for (const report of REPORT) {
          const y = pipelines.map((c): StatisticInput => {
            const mean = reportMeans.get(meanKey(d, c.name, report));
            return {
              ref: reports.keys.get(meanKey("", c.name, report)),
              value: mean ? mean.value : null,
              label: `${c.label} ${LABELS[report]}`,
              missing: reports.missing.get(meanKey(d, c.name, report)),
            };
          });
          const s = tableStatistic(data, { statistic: "kendall_tau_b", topicSet }, x, y);
          shown.set(col(d, cutoff, report) + `\u0000${context}`, s);
          const row: ContextSizeTau = {
            dataset: d,
            cutoff,
            context,
            report,
            value: s.shown.value ?? NaN,
            pipelines: s.shown.n,
          };
          if (s.shown.value === null) {
            const because = undefinedBecause(s.shown.reason);
            if (because) row.undefinedBecause = because;
            else Object.assign(row, { reason: s.shown.reason, pipelines: 0 });
          }
          taus.push(row);
        }
      }
    }
  }
  for (const [k, v] of reportMeans) {
    const [d, condition, measure] = k.split("\u0000");
    means.push({ dataset: d, cutoff: "report", condition, measure, value: v.value });
  }
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
        x.reason || x.undefinedBecause?.startsWith("constant")
          ? null
          : corrCell(x.value, x.pipelines),
      ]),
    ),
  }));
  // Every cell is a Kendall τ: derived from its stored row, with the stored means
  // it pairs, or blank with the reason.
  const cells: CellSource[] = taus.map((x) => {
    const column = col(x.dataset, x.cutoff, x.report);
    const s = shown.get(`${column}\u0000${x.context}`)!;
    // A stored τ over too few pipelines is shown as "n/a (n=k)": blank, with the reason.
    const withheld = x.pipelines < MIN_SYSTEMS
      ? `withheld: over ${x.pipelines} pipelines (fewer than ${MIN_SYSTEMS})`
      : undefined;
    return statisticCell(LABELS[x.context], column, "Kendall tau-b across pipelines", s, withheld);
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
  // A τ with an input without a stored value is absent, never over the other pipelines.
  const absent = [
    ...new Set(
      [...shown.values()].filter((x) => x.shown.value === null && x.shown.reason !== NOT_STORED)
        .flatMap((x) => x.request?.missing ?? []),
    ),
  ];
  if (absent.length) {
    notes.push(
      `Blank where a pipeline has no stored value (no τ over the others): ${absent.join("; ")}.`,
    );
  }
  notes.push(...notStoredNote(shown.values()));
  return {
    name: "context_size_table",
    data: { taus, means },
    cells,
    statistics: [...shown.values()].flatMap((x) => (x.request ? [x.request] : [])),
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

/** Why a stored tau is undefined on its inputs, from its stored reason (see `computeStatistics`). */
function undefinedBecause(reason: string): UndefinedTauReason | undefined {
  if (reason.startsWith("undefined: both vectors are constant")) return "constant-both";
  if (reason.startsWith("undefined: the first vector is constant")) return "constant-context";
  if (reason.startsWith("undefined: the second vector is constant")) return "constant-report";
  if (reason.startsWith("undefined over")) return "too-few-pipelines";
  return undefined;
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
