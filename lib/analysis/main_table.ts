/**
 * The main CRUX comparison table over retrieval pipelines.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { generationFlagNotes } from "./_generation_flags.ts";
import { scatterChart, table, type TableColumn, type TableRow } from "@lib/report/mod.ts";
import type { Analysis, CellSource, Condition, CruxData } from "./types.ts";
import type { TableStatistic } from "./_statistic_cells.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import {
  conditionValues,
  datasetsOf,
  MAIN_MEASURES,
  meanKey,
  type ScoreRecord,
} from "./_condition_scores.ts";
import { LABELS } from "./_scores.ts";
import { labelling } from "./_labels.ts";
import { cell, corrCell, fewSystemsNote, MIN_SYSTEMS, symbolNote } from "./_stats.ts";
import {
  notStoredNote,
  statisticCell,
  type StatisticInput,
  tableStatistic,
} from "./_statistic_cells.ts";
import type { StatisticRequest } from "./compute_statistics.ts";
import { NOT_STORED } from "./stored_statistic.ts";
import { inferenceColumns } from "./_inference.ts";
import { conditionPalette } from "./_palette.ts";
import { missingValueNotes } from "./_missing_values.ts";
import { meansTopicSetNote } from "./_topic_set_note.ts";

/** Options of {@linkcode mainTable}. */
export interface MainTableOptions {
  /** Conditions to compare. Default: `resolveConditions(data)`. */
  conditions?: readonly Condition[];
  /** Answerability threshold. Default 3. */
  tau?: number;
  /** Density exponent. Default 0.5 (CRUX paper tables). */
  w?: number;
  /** Add a column with the 95% bootstrap CI of Cov(y) over topics. Default false. */
  ci?: boolean;
  /**
   * Condition name to test every other condition against (paired t-test of
   * per-topic Cov(y)): adds a `p vs ...` column, † marking p < 0.05. Default: none.
   */
  baseline?: string;
}

/** Kendall tau between a context measure and its report measure across pipelines. */
export interface MeasureTau {
  dataset: string;
  context: string;
  report: string;
  /** The stored statistic; NaN when it is absent. */
  value: number;
  /** Pipelines correlated (0 when absent). */
  pipelines: number;
  /** Why the value is absent. */
  reason?: string;
}

/** Data of {@linkcode mainTable}. */
export interface MainTableData {
  /** Per-topic values of every condition. */
  perTopic: ScoreRecord[];
  /** Means per dataset, condition and measure, with the number of topics averaged. */
  means: { dataset: string; condition: string; measure: string; value: number; topics: number }[];
  taus: MeasureTau[];
}

/** Which report measure each context measure is correlated with. */
const PAIRED: Record<string, string> = { covZ: "covY", andcg: "covY", denZ: "denY" };

/**
 * The main table of the CRUX analyses: for every retrieval pipeline (and the
 * references: direct prompting, oracle context P*, oracle result = human
 * summary) and every dataset, Cov(Z), alpha-nDCG and Den(Z) of the context
 * passed to the generator (top-|P*|) and Cov(y), Den(y) of the report
 * generated from it (Den with exponent w against P*, token counts as stored,
 * Llama-3.1 by default). Values are means over the topics with at least one
 * answerable sub-question. A last row gives, per dataset, Kendall's tau-b
 * across pipelines between each context measure and the report measure of
 * its kind (Cov(Z) and alpha-nDCG against Cov(y); Den(Z) against Den(y)).
 * Best pipeline values are bold, worst underlined; reference and tau rows are
 * not marked. Every table carries the backend label. The figure plots
 * Cov(Z) against Cov(y) per condition with a least-squares line.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param opts `conditions` (default: all found), `tau` (3), `w` (0.5).
 * @returns `main_table`: per-topic scores, means, taus, the table and the scatter figure.
 * @example
 * ```ts
 * import { loadCruxData, mainTable } from "@lib/analysis/mod.ts";
 * import { displayTable } from "@lib/report/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const result = mainTable(await loadCruxData(ws));
 * displayTable(result.table!);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function mainTable(data: CruxData, opts: MainTableOptions = {}): Analysis<MainTableData> {
  const t = opts.tau ?? CRUX_DEFAULTS.tau;
  const w = opts.w ?? CRUX_DEFAULTS.w;
  const conditions = opts.conditions ?? resolveConditions(data);
  const scored = conditionValues(data, conditions, { tau: t, w });
  const perTopic = scored.records;
  const means = scored.means;
  // Intervals and tests only over conditions whose mean is stored (a complete topic set).
  const complete = perTopic.filter((r) => means.has(meanKey(r.dataset, r.condition, r.measure)));
  const datasets = datasetsOf(data);
  const pipelines = conditions.filter((c) => c.kind === "pipeline");
  const key = (dataset: string, m: string) => `${dataset}:${m}`;
  const taus: MeasureTau[] = [];
  // The taus are stored by the statistics stage; the table asks for them and reads them.
  const statistics = new Map<string, TableStatistic>();
  for (const dataset of datasets) {
    const topicSet = datasets.length > 1 ? `all:${dataset}` : "all";
    const inputs = (m: string) =>
      pipelines.map((c): StatisticInput => {
        const mean = means.get(meanKey(dataset, c.name, m));
        return {
          ref: scored.keys.get(meanKey("", c.name, m)),
          value: mean ? mean.value : null,
          label: `${c.label} ${LABELS[m]}`,
          missing: scored.missing.get(meanKey(dataset, c.name, m)),
        };
      });
    for (const [context, report] of Object.entries(PAIRED)) {
      const s = tableStatistic(
        data,
        { statistic: "kendall_tau_b", topicSet },
        inputs(context),
        inputs(report),
      );
      statistics.set(key(dataset, context), s);
      taus.push({
        dataset,
        context,
        report,
        value: s.shown.value ?? NaN,
        pipelines: s.shown.value === null ? 0 : s.shown.n,
        ...(s.shown.value === null ? { reason: s.shown.reason } : {}),
      });
    }
  }
  const inference = datasets.map((d) =>
    inferenceColumns(data, complete, conditions, d, d, {
      measure: "covY",
      label: LABELS.covY,
      ci: opts.ci,
      baseline: opts.baseline,
      keys: scored.keys,
      topicSet: datasets.length > 1 ? `all:${d}` : "all",
    })
  );
  const columns: TableColumn[] = datasets.flatMap((dataset, i) => [
    ...MAIN_MEASURES.map((m) => ({
      key: key(dataset, m),
      label: LABELS[m],
      group: dataset,
      direction: "higher" as const,
    })),
    ...inference[i].columns,
  ]);
  const rows: TableRow[] = conditions.map((c) => ({
    label: c.label,
    ...(c.kind === "pipeline" ? {} : { group: "reference" }),
    values: Object.fromEntries([
      ...datasets.flatMap((d) =>
        MAIN_MEASURES.map((m) => [key(d, m), cell(means.get(meanKey(d, c.name, m))?.value)])
      ),
      ...inference.flatMap((inf) => Object.entries(inf.cells.get(c.name) ?? {})),
    ]),
  }));
  rows.push({
    label: "Kendall τ (context vs report)",
    group: "correlation",
    values: Object.fromEntries(
      taus.map((x) => [
        key(x.dataset, x.context),
        Number.isNaN(x.value) ? null : corrCell(x.value, x.pipelines),
      ]),
    ),
  });
  const lab = labelling(data);
  const counts = [...means.values()].map((m) => m.topics);
  const notes = [
    ...lab.notes,
    `Context Z = the top-|P*| passages given to the generator; Den exponent w = ${w}.`,
    symbolNote(t),
    ...referenceNote(conditions),
    `Kendall τ: tau-b across ${pipelines.length} pipelines (references excluded) of Cov(Z) and α-nDCG against Cov(y), and of Den(Z) against Den(y).`,
    ...fewSystemsNote(taus.filter((x) => !Number.isNaN(x.value)).map((x) => x.pipelines)),
    ...absentTauNotes(taus.filter((x) => x.reason !== NOT_STORED), datasets.length > 1),
    ...notStoredNote(statistics.values()),
    "Den = [(Cov / tokens) / (Cov of P* / tokens of P*)]^w: coverage per token relative to P*; above 1 when a text covers more per token than P*, as a concise human summary can.",
    ...inference.flatMap((inf, i) => (i === 0 ? inf.notes : [])),
    ...generationFlagNotes(data, conditions),
    ...missingValueNotes(
      conditions,
      datasets,
      (d, c, m) => means.has(meanKey(d, c.name, m)),
      MAIN_MEASURES,
      (d, c, m) => scored.missing.get(meanKey(d, c.name, m)),
    ),
  ];
  notes.push(...meansTopicSetNote(means, datasets.length, counts));
  // Each value cell names the stored row it shows, or why it is blank.
  const cells: CellSource[] = conditions.flatMap((c) =>
    datasets.flatMap((d) =>
      MAIN_MEASURES.map((m): CellSource => {
        const mean = means.get(meanKey(d, c.name, m));
        const column = key(d, m);
        if (mean) return { row: c.label, column, key: { ...mean.key, topicId: mean.topicId } };
        return {
          row: c.label,
          column,
          reason: scored.missing.get(meanKey(d, c.name, m)) ?? "does not apply to this condition",
        };
      })
    )
  );
  // ... and each tau its stored statistic, or why it is blank.
  for (const x of taus) {
    const column = key(x.dataset, x.context);
    cells.push(statisticCell(
      "Kendall τ (context vs report)",
      column,
      "Kendall tau-b across pipelines",
      statistics.get(column)!,
      x.pipelines < MIN_SYSTEMS
        ? `withheld: over ${x.pipelines} pipelines (fewer than ${MIN_SYSTEMS})`
        : undefined,
    ));
  }
  const requests: StatisticRequest[] = [
    ...[...statistics.values()].flatMap((s) => (s.request ? [s.request] : [])),
    ...inference.flatMap((inf) => inf.statistics),
  ];
  const covZ = (d: string, c: Condition) => means.get(meanKey(d, c.name, "covZ"))?.value;
  const covY = (d: string, c: Condition) => means.get(meanKey(d, c.name, "covY"))?.value;
  const points = datasets.flatMap((dataset) =>
    conditions.filter((c) => covZ(dataset, c) !== undefined && covY(dataset, c) !== undefined)
      .map((c) => ({
        pipeline: c.label,
        dataset,
        contextCov: covZ(dataset, c)!,
        reportCov: covY(dataset, c)!,
      }))
  );
  const tauText = taus.filter((x) => x.context === "covZ")
    .map((x) =>
      `${datasets.length > 1 ? `${x.dataset}: ` : ""}Kendall τ = ${
        Number.isNaN(x.value)
          ? "n/a"
          : x.pipelines < MIN_SYSTEMS
          ? `n/a (n=${x.pipelines})`
          : x.value.toFixed(3)
      }`
    )
    .join("; ");
  const fitOn = pipelines.map((c) => c.label);
  return {
    name: "main_table",
    data: {
      perTopic,
      means: [...means].map(([k, v]) => {
        const [dataset, condition, measure] = k.split("\u0000");
        return { dataset, condition, measure, value: v.value, topics: v.topics };
      }),
      taus,
    },
    cells,
    statistics: requests,
    table: table({
      caption: `Retrieval contexts and reports under the oracle budget${lab.suffix}`,
      label: "tab:main",
      rowHeader: "Pipeline",
      columns,
      rows,
      notes,
      unmarkedGroups: ["reference", "correlation"],
    }),
    figure: scatterChart(points, {
      title: `Context coverage Cov(Z) vs report coverage Cov(y)${lab.suffix}`,
      subtitle:
        `${tauText} across ${pipelines.length} pipelines (t = ${t}); dashed line: least squares over the pipelines only${
          datasets.length > 1 ? ", per dataset" : ""
        }`,
      palette: conditionPalette(data, conditions),
      fitOn,
      note: lab.note,
      x: "contextCov",
      y: "reportCov",
      // A legend names the points (inline labels collide when scores are close);
      // several datasets are side-by-side panels, each with its own line.
      color: "pipeline",
      colorTitle: "pipeline",
      ...(datasets.length > 1 ? { facet: "dataset" } : {}),
      xTitle: "Cov(Z) of the top-|P*| context",
      yTitle: "Cov(y) of the report",
    }),
  };
}

/** The references the table holds, named by what they are (none: no note). */
function referenceNote(conditions: readonly Condition[]): string[] {
  const kinds = new Set(conditions.map((c) => c.kind));
  const parts = [
    kinds.has("direct") ? "direct prompting without context" : "",
    kinds.has("oracle-context") ? "the report generated from the oracle context P*" : "",
    kinds.has("oracle-result") ? "the oracle result (the human summary)" : "",
  ].filter(Boolean);
  if (!parts.length) return [];
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0];
  return [`References: ${list}.`];
}

/** Why a tau of the table is blank: its stored reason, by context measure. */
function absentTauNotes(taus: readonly MeasureTau[], multi: boolean): string[] {
  return taus.filter((x) => x.reason).map((x) =>
    `No Kendall τ of ${LABELS[x.context]} vs ${LABELS[x.report]}${
      multi ? ` on ${x.dataset}` : ""
    }: ${x.reason}.`
  );
}
