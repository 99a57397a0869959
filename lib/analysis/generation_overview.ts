/**
 * The generated reports against their oracle budget.
 *
 * @module
 */
import { barChart, naturalCompare, table, topicChart } from "@lib/report/mod.ts";
import { tableCells } from "./table_cells.ts";
import type { Analysis, Condition, CruxData } from "./types.ts";
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
}

/** One report of {@linkcode GenerationOverviewData}. */
export interface ReportLength {
  topicId: string;
  condition: string;
  kind: Condition["kind"];
  /** Tokens of the report (as stored). */
  tokens: number | null;
  /** The topic's budget: tokens of P*. */
  budget: number;
  /** Passages in the report's context. */
  contextSize: number;
  text: string;
}

/** Data of {@linkcode generationOverview}. */
export interface GenerationOverviewData {
  reports: ReportLength[];
}

/**
 * Lists every report (topic, condition, tokens against the topic's budget =
 * tokens of P*, context size, the start of its text) as a table, and draws
 * the report lengths per topic and condition next to the budget as a grouped
 * bar chart (above 24 topics: tokens / budget per topic, one small panel per
 * condition). The human summary (oracle result) is not bound by the budget and
 * is shown for comparison.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param opts `conditions` (default: all found), `preview` (80 characters).
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
  const budgets = new Map(
    [...dataOracleSets(data)].map((
      [t, ids],
    ) => [t, ids.reduce((s, id) => s + (data.tokens.get(id) ?? 0), 0)]),
  );
  const reports: ReportLength[] = [];
  for (const c of conditions) {
    for (const g of data.generations) {
      if (g.run !== c.generation || !budgets.has(g.topicId)) continue;
      reports.push({
        topicId: g.topicId,
        condition: c.label,
        kind: c.kind,
        tokens: g.tokens ?? null,
        budget: budgets.get(g.topicId)!,
        contextSize: g.contextIds?.length ?? 0,
        text: g.text,
      });
    }
  }
  reports.sort((a, b) => naturalCompare(a.topicId, b.topicId));
  const lab = labelling(data);
  // Said only when the experiment has an oracle result.
  const human = conditions.some((c) => c.kind === "oracle-result")
    ? "; the oracle result is the human summary"
    : "";
  const budgetMarks = [...budgets].filter(([t]) => reports.some((r) => r.topicId === t))
    .sort(([a], [b]) => naturalCompare(a, b))
    .map(([topicId, budget]) => ({ topicId, value: budget }));
  // A report whose token count is not stored is left out of the figure, not drawn as 0.
  const counted = reports.filter((r): r is ReportLength & { tokens: number } => r.tokens !== null);
  const bars = counted.map((r) => ({ topicId: r.topicId, series: r.condition, value: r.tokens }));
  const over = counted.filter((r) => r.kind !== "oracle-result" && r.tokens > r.budget).length;
  const uncounted = reports.length - counted.length;
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
          ratio: r.budget > 0 && r.tokens !== null ? r.tokens / r.budget : null,
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
          ? [`${uncounted} report(s) have no stored token count: their Tokens cell is blank.`]
          : []),
        ...flagNotes,
      ],
    }),
    figure: budgetMarks.length > MAX_BAR_TOPICS
      ? topicChart(
        counted.filter((r) => r.budget > 0).map((r) => ({
          topicId: r.topicId,
          series: r.condition,
          value: r.tokens / r.budget,
        })),
        {
          title: `Report length relative to the budget per topic and condition${lab.suffix}`,
          subtitle: `tokens / budget (budget = tokens of P*; 1 = at the budget)${human}`,
          palette: conditionPalette(data, conditions),
          note: lab.note,
          color: "series",
          colorTitle: "condition",
          yTitle: "tokens / budget",
          yDomain: [0, Math.max(1.2, ...counted.map((r) => (r.budget ? r.tokens / r.budget : 0)))],
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
  // Counts of the stored reports and of each topic's P*; no measure row holds them.
  const what: Record<string, string> = {
    tokens: "tokens of the stored report",
    budget: "tokens of the topic's oracle passages P*",
    ratio: "report tokens / budget",
    context: "passages of the stored report's context",
  };
  return {
    ...out,
    // A report or condition name that reads as a number is text of the store, too.
    cells: tableCells(
      out.table!,
      (_row, column, value) =>
        value === null
          ? { reason: "the report has no stored token count" }
          : { derived: what[column] ?? `${column} of the stored report`, inputs: [] },
    ),
  };
}
