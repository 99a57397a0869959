/**
 * The generated reports against their oracle budget.
 *
 * @module
 */
import { barChart, naturalCompare, table, topicChart } from "@lib/report/mod.ts";
import { answerMeasureName, CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { REPORT_BUDGET_MEASURES } from "@lib/judge/mod.ts";
import { tableCells } from "./table_cells.ts";
import type { Analysis, CellKey, Condition, CruxData } from "./types.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import { dataOracleSets } from "./_scores.ts";
import { labelling } from "./_labels.ts";
import { generationFlagNotes } from "./_generation_flags.ts";
import { conditionPalette } from "./_palette.ts";

/** Above this many topics the figure shows tokens / budget per topic instead of bars. */
const MAX_BAR_TOPICS = 24;

/** Options of {@linkcode generationOverview}. */
export interface GenerationOverviewOptions {
  /** Conditions shown. Default: `resolveConditions(data)`. */
  conditions?: readonly Condition[];
  /** Characters of each report shown in the table. Default 80 (0 = no text column). */
  preview?: number;
  /**
   * Threshold of the Cov(y) values whose `Tokens` rows give the report lengths
   * (`Tokens` at 3, `Tokens(tau=X)` otherwise). Default 3.
   */
  tau?: number;
}

/** One report of {@linkcode GenerationOverviewData}: stored values, null where none is stored. */
export interface ReportLength {
  topicId: string;
  condition: string;
  kind: Condition["kind"];
  /** Tokens of the report (its stored `Tokens` row). */
  tokens: number | null;
  /** The topic's budget: tokens of P* (the stored `Budget` row). */
  budget: number | null;
  /** Tokens / budget (the stored `Tokens/Budget` row). */
  ratio: number | null;
  /** Passages in the report's context (the stored `ContextPassages` row). */
  contextSize: number | null;
  /** The report's text ("" when it failed to generate). */
  text: string;
  /** The report failed to generate: the row has no value. */
  failed?: boolean;
}

/** Data of {@linkcode generationOverview}. */
export interface GenerationOverviewData {
  reports: ReportLength[];
}

/** The columns of the table that show stored rows. */
type ValueColumn = "tokens" | "budget" | "ratio" | "context";

/**
 * Lists every report (topic, condition, tokens against the topic's budget =
 * tokens of P*, context size, the start of its text) as a table, and draws
 * the report lengths per topic and condition next to the budget as a grouped
 * bar chart (above 24 topics: tokens / budget per topic, one small panel per
 * condition). The human summary (oracle result) is not bound by the budget and
 * is shown for comparison. Every number is a stored row of the report
 * measures (`Tokens`, `Budget`, `Tokens/Budget`, `ContextPassages` by the
 * report judge); a value not stored is blank, with its reason, and a report
 * that failed to generate has a row without values.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param opts `conditions` (default: all found), `preview` (80 characters), `tau` (3).
 * @returns `generation_overview`: report lengths, a table and a figure.
 * @example
 * ```ts
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { loadCruxData } from "@lib/analysis/mod.ts";
 * import { generationOverview } from "@lib/analysis/mod.ts";
 * import { displayTable } from "@lib/report/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const data = await loadCruxData(ws);
 * const r = generationOverview(data);
 * displayTable(r.table!);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function generationOverview(
  data: CruxData,
  opts: GenerationOverviewOptions = {},
): Analysis<GenerationOverviewData> {
  const conditions = opts.conditions ?? resolveConditions(data);
  const preview = opts.preview ?? 80;
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const judge = data.reportJudge;
  // The report lengths are the `Tokens` rows beside Cov(y) at tau.
  const measures: Record<ValueColumn, string> = {
    tokens: answerMeasureName("Cov", tau, CRUX_DEFAULTS.w).replace(/^Cov/, "Tokens"),
    budget: REPORT_BUDGET_MEASURES.budget,
    ratio: REPORT_BUDGET_MEASURES.ratio,
    context: REPORT_BUDGET_MEASURES.context,
  };
  const index = new Map<string, { value: number; key: CellKey }>();
  const at = (run: string, topicId: string, measure: string) =>
    [run, topicId, measure].join("\u0000");
  for (const r of data.measures ?? []) {
    if (r.source !== "report" || r.judge !== judge || r.topicId === "all") continue;
    const { run, topicId, measure, source } = r;
    index.set(at(run, topicId, measure), {
      value: r.value,
      key: { run, source, judge: r.judge, measure, topicId, topicSet: r.topicSet ?? null },
    });
  }
  const oracle = dataOracleSets(data);
  /** Why a report's value is not stored. */
  const reason = (run: string, topicId: string, column: ValueColumn): string => {
    const g = data.generations.find((x) => x.run === run && x.topicId === topicId);
    if (!g) return "the report failed to generate; re-run to retry";
    if (!judge) return "no report was judged: the report measures are not stored";
    const ids = oracle.get(topicId) ?? [];
    const noTokens = g.tokens == null ? "the report has no stored token count" : undefined;
    const noBudget = !ids.length
      ? "the topic has no oracle passages P*"
      : ids.some((id) => !data.tokens.has(id))
      ? `passage "${ids.find((id) => !data.tokens.has(id))}" of P* has no token count`
      : undefined;
    const found = column === "tokens"
      ? noTokens ??
        `no ${measures.tokens} row: the report has no Cov(y) at tau = ${tau} (a failed or unparsed rating, or no answerable sub-question)`
      : column === "budget"
      ? noBudget
      : column === "ratio"
      ? noBudget ?? noTokens
      : undefined;
    return found ?? `no ${measures[column]} row stored (run the report measure stage)`;
  };
  const stored = (run: string, topicId: string, column: ValueColumn) =>
    index.get(at(run, topicId, measures[column]));
  const reports: ReportLength[] = [];
  // Where each value comes from, by report.
  const sources = new Map<ReportLength, { run: string }>();
  for (const c of conditions) {
    if (!c.generation) continue;
    const run = c.generation;
    const gens = data.generations.filter((g) => g.run === run);
    const failed = (data.failedReports?.get(run)?.topics ?? []).filter((t) =>
      !gens.some((g) => g.topicId === t)
    );
    for (const topicId of [...gens.map((g) => g.topicId), ...failed]) {
      const g = gens.find((x) => x.topicId === topicId);
      const value = (column: ValueColumn) => stored(run, topicId, column)?.value ?? null;
      const r: ReportLength = {
        topicId,
        condition: c.label,
        kind: c.kind,
        tokens: value("tokens"),
        budget: value("budget"),
        ratio: value("ratio"),
        contextSize: value("context"),
        text: g?.text ?? "",
        ...(g ? {} : { failed: true }),
      };
      reports.push(r);
      sources.set(r, { run });
    }
  }
  reports.sort((a, b) => naturalCompare(a.topicId, b.topicId));
  const lab = labelling(data);
  // Said only when the experiment has an oracle result.
  const human = conditions.some((c) => c.kind === "oracle-result")
    ? "; the oracle result is the human summary"
    : "";
  const budgets = new Map<string, number>();
  for (const r of reports) {
    if (r.budget !== null && !budgets.has(r.topicId)) budgets.set(r.topicId, r.budget);
  }
  const budgetMarks = [...budgets].sort(([a], [b]) => naturalCompare(a, b))
    .map(([topicId, budget]) => ({ topicId, value: budget }));
  // A report whose length or budget is not stored is left out of the figure, not drawn as 0.
  const counted = reports.filter((r): r is ReportLength & { tokens: number; budget: number } =>
    r.tokens !== null && r.budget !== null
  );
  const bars = counted.map((r) => ({ topicId: r.topicId, series: r.condition, value: r.tokens }));
  const shares = reports.filter((r): r is ReportLength & { ratio: number } => r.ratio !== null);
  const over = shares.filter((r) => r.kind !== "oracle-result" && r.ratio > 1).length;
  const failed = reports.filter((r) => r.failed).length;
  const uncounted = reports.filter((r) => !r.failed && r.tokens === null).length;
  const flagNotes = generationFlagNotes(data, conditions);
  const out: Analysis<GenerationOverviewData> = {
    name: "generation_overview",
    data: { reports },
    table: table({
      caption: `Generated reports and their budget${lab.suffix}`,
      label: "tab:reports",
      rowHeader: "Topic",
      columns: [
        { key: "condition", label: "Condition" },
        { key: "tokens", label: "Tokens", decimals: 0 },
        { key: "budget", label: "Budget", decimals: 0 },
        { key: "ratio", label: "Tokens / budget", decimals: 2 },
        { key: "context", label: "Context passages", decimals: 0 },
        ...(preview > 0 ? [{ key: "text", label: "Report (start)" }] : []),
      ],
      rows: reports.map((r) => ({
        label: r.topicId,
        values: {
          condition: r.condition,
          tokens: r.tokens,
          budget: r.budget,
          ratio: r.ratio,
          context: r.contextSize,
          ...(preview > 0
            ? { text: r.text.length > preview ? r.text.slice(0, preview) + "…" : r.text }
            : {}),
        },
      })),
      notes: [
        ...lab.notes,
        "Budget = tokens of the topic's oracle passages P* (the maximum report length of every pipeline); top-k = |P*|.",
        `${over} generated report(s) exceed the budget.`,
        ...(uncounted
          ? [`${uncounted} report(s) have no stored length: their Tokens cell is blank.`]
          : []),
        ...(failed ? [`${failed} report(s) failed to generate: their row has no value.`] : []),
        ...flagNotes,
      ],
    }),
    figure: budgetMarks.length > MAX_BAR_TOPICS
      ? topicChart(
        shares.map((r) => ({ topicId: r.topicId, series: r.condition, value: r.ratio })),
        {
          title: `Report length relative to the budget per topic and condition${lab.suffix}`,
          subtitle: `tokens / budget (budget = tokens of P*; 1 = at the budget)${human}`,
          palette: conditionPalette(data, conditions),
          note: lab.note,
          color: "series",
          colorTitle: "condition",
          yTitle: "tokens / budget",
          yDomain: [0, Math.max(1.2, ...shares.map((r) => r.ratio))],
        },
      )
      : barChart(bars, {
        title: `Report length per topic and condition vs the budget${lab.suffix}`,
        subtitle:
          `tokens (Llama-3.1 unless configured otherwise); black dash: the topic's budget = tokens of P*${human}`,
        reference: budgetMarks,
        palette: conditionPalette(data, conditions),
        note: lab.note,
        x: "topicId",
        color: "series",
        xTitle: "topic",
        yTitle: "tokens",
        colorTitle: "condition",
      }),
  };
  // Each value cell names the stored row it shows, or why it is blank.
  const position = new Map(out.table!.rows.map((row, i) => [row, i]));
  return {
    ...out,
    cells: tableCells(out.table!, (row, column) => {
      // A report or condition name that reads as a number is text of the store, too.
      if (!(column in measures)) {
        return { derived: column === "text" ? "the stored report's text" : "the condition's name" };
      }
      const r = reports[position.get(row)!];
      const { run } = sources.get(r)!;
      const shown = stored(run, r.topicId, column as ValueColumn);
      return shown ? { key: shown.key } : { reason: reason(run, r.topicId, column as ValueColumn) };
    }),
  };
}
