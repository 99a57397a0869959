/**
 * Report coverage and density per condition.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { barChart, table } from "@lib/report/mod.ts";
import type { Analysis, CellSource, Condition, CruxData } from "./types.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import {
  conditionValues,
  datasetsOf,
  meanKey,
  type StoredKey,
  storedMean,
} from "./_condition_scores.ts";
import { labelling } from "./_labels.ts";
import { cell, symbolNote } from "./_stats.ts";
import { conditionPalette } from "./_palette.ts";

/** The stored report length beside a Cov(y) key (`Cov(tau=4)` -> `Tokens(tau=4)`). */
const tokensKey = (cov: StoredKey): StoredKey => ({
  run: cov.run,
  source: cov.source,
  judge: cov.judge,
  measure: cov.measure.replace(/^Cov/, "Tokens"),
});

/** Options of {@linkcode reportScores}. */
export interface ReportScoresOptions {
  /** Conditions shown. Default: `resolveConditions(data)`. */
  conditions?: readonly Condition[];
  /** Answerability threshold. Default 3. */
  tau?: number;
  /** Density exponent. Default 0.5. */
  w?: number;
}

/** One row of {@linkcode ReportScoresData}. */
export interface ConditionScore {
  condition: string;
  kind: Condition["kind"];
  /** Mean Cov(y), Den(y) and report tokens over the judged topics. */
  coverage: number;
  density: number;
  tokens: number;
  topics: number;
}

/** Data of {@linkcode reportScores}. */
export interface ReportScoresData {
  scores: ConditionScore[];
}

/**
 * Mean Cov(y) and Den(y) of the reports of every condition (pipelines and
 * references), with the mean report length, as a table (best pipeline bold,
 * worst underlined, references unmarked) and a grouped bar chart.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param opts `conditions`, `tau` (3), `w` (0.5).
 * @returns `report_scores`: the scores, a table and a figure.
 * @example
 * ```ts
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { loadCruxData } from "@lib/analysis/mod.ts";
 * import { reportScores } from "@lib/analysis/mod.ts";
 * import { displayTable } from "@lib/report/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const data = await loadCruxData(ws);
 * displayTable(reportScores(data).table!);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function reportScores(
  data: CruxData,
  opts: ReportScoresOptions = {},
): Analysis<ReportScoresData> {
  const t = opts.tau ?? CRUX_DEFAULTS.tau;
  const conditions = opts.conditions ?? resolveConditions(data);
  const values = conditionValues(data, conditions, { tau: t, w: opts.w ?? CRUX_DEFAULTS.w });
  // The stored run means (over the run's whole topic set), or nothing.
  const datasets = datasetsOf(data);
  const scores: ConditionScore[] = conditions.map((c) => {
    const stored = (m: string) => {
      const key = values.means.get(meanKey(datasets[0] ?? "", c.name, m))?.key;
      return key && storedMean(data, key);
    };
    const cov = stored("covY");
    return {
      condition: c.label,
      kind: c.kind,
      coverage: cov?.value ?? NaN,
      density: stored("denY")?.value ?? NaN,
      // The stored mean report length over the topics of the Cov(y) mean.
      tokens: (cov && storedMean(data, tokensKey(cov))?.value) ?? NaN,
      // The stored Cov(y) mean's topic count. No mean (or a mean stating no
      // count), no count: a blank, never a count made here.
      topics: cov?.topics ?? NaN,
    };
  });
  const blank = conditions.flatMap((c) => {
    const why = datasets.map((d) => values.missing.get(meanKey(d, c.name, "covY"))).find(Boolean);
    return why ? [`${c.label}: no Cov(y) (${why}).`] : [];
  });
  // Cov(y) and Den(y) are the stored run means; Tokens and Topics describe them.
  const cells: CellSource[] = conditions.flatMap((c, i) => {
    const row = scores[i].condition;
    const one = (column: string, m: string): CellSource => {
      const key = values.means.get(meanKey(datasets[0] ?? "", c.name, m))?.key;
      const why = datasets.map((d) => values.missing.get(meanKey(d, c.name, m))).find(Boolean);
      return key && storedMean(data, key)
        ? { row, column, key: { ...key, topicId: "all" } }
        : { row, column, reason: why ?? "does not apply to this condition" };
    };
    const cov = one("cov", "covY");
    // The topics the stored Cov(y) mean is over, as that row states them.
    const topics = (): CellSource => {
      if (!cov.key) return { row, column: "topics", reason: cov.reason };
      return storedMean(data, cov.key)?.topics != null
        ? { row, column: "topics", key: cov.key, shows: "topics" }
        : {
          row,
          column: "topics",
          reason: `the stored ${cov.key.measure} mean states no topic count`,
        };
    };
    const tokens = (): CellSource => {
      if (!cov.key) return { row, column: "tokens", reason: cov.reason };
      const key = tokensKey(cov.key);
      return storedMean(data, key) ? { row, column: "tokens", key: { ...key, topicId: "all" } } : {
        row,
        column: "tokens",
        reason:
          `no mean report length stored beside ${cov.key.measure}: a report of its topics has no token count (see the measure stage's notes)`,
      };
    };
    return [
      cov,
      one("den", "denY"),
      tokens(),
      topics(),
    ];
  });
  const lab = labelling(data);
  return {
    name: "report_scores",
    data: { scores },
    cells,
    table: table({
      caption: `Report coverage Cov(y) and density Den(y) per condition${lab.suffix}`,
      label: "tab:report-scores",
      rowHeader: "Condition",
      columns: [
        { key: "cov", label: "Cov(y)", direction: "higher" },
        { key: "den", label: "Den(y)", direction: "higher" },
        { key: "tokens", label: "Tokens", decimals: 0 },
        { key: "topics", label: "Topics", decimals: 0 },
      ],
      rows: scores.map((s, i) => ({
        label: s.condition,
        ...(conditions[i].kind === "pipeline" ? {} : { group: "reference" }),
        values: {
          cov: cell(s.coverage),
          den: cell(s.density),
          tokens: cell(s.tokens),
          topics: cell(s.topics),
        },
      })),
      notes: [
        ...lab.notes,
        `Den(y) exponent w = ${
          opts.w ?? CRUX_DEFAULTS.w
        } against the tokens of P*: coverage per token relative to P*, above 1 when a report covers more per token than P* (as a concise human summary can).`,
        symbolNote(t),
        ...blank,
      ],
    }),
    figure: barChart(
      scores.flatMap((s) => [
        ...(Number.isNaN(s.coverage)
          ? []
          : [{ measure: "Cov(y)", condition: s.condition, value: s.coverage }]),
        ...(Number.isNaN(s.density)
          ? []
          : [{ measure: "Den(y)", condition: s.condition, value: s.density }]),
      ]),
      {
        title: `Report coverage and density per condition${lab.suffix}`,
        subtitle: `t = ${t} (answerability threshold)`,
        palette: conditionPalette(data, conditions),
        note: lab.note,
        color: "condition",
        colorTitle: "condition",
        yTitle: "mean over topics",
      },
    ),
  };
}
