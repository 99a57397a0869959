/**
 * Paper-style table and figures of a context evaluation.
 *
 * @module
 */
import {
  barChart,
  type Palette,
  type Table,
  table as makeTable,
  topicChart,
  type VegaLiteSpec,
} from "@lib/report/mod.ts";
import type { ContextEvaluationResult } from "./context_evaluation.ts";
import { contextPalette } from "./run_palette.ts";

/** Options of {@linkcode contextReport}. */
export interface ContextReportOptions {
  /** Notes under the table and on the figures (judges, backends, tokenizer). */
  notes?: string[];
  /** Dataset name for titles. Default `sample`. */
  dataset?: string;
  /**
   * The experiment's palette by run (see `runPalette`): a run's contexts take
   * its pipeline's colour, P* the oracle context's, the empty context direct
   * prompting's. Default: those rules over a fresh palette.
   */
  palette?: Palette;
}

/** The table and figures of a context evaluation. */
export interface ContextReport {
  table: Table;
  figures: { name: string; spec: VegaLiteSpec }[];
}

/**
 * Builds the context-evaluation table (one row per condition, reference rows
 * for the oracle and empty contexts, best bold / worst underlined among the
 * others) and two figures: the mean Cov, alpha-nDCG and Den per condition, and
 * per-topic coverage of each condition.
 *
 * @param result Output of `evaluateContexts`.
 * @param opts Notes (labels of judges/backends) and dataset name.
 * @returns The table and named figure specs.
 * @example
 * ```ts
 * import { contextReport, evaluateContexts } from "@lib/analysis/mod.ts";
 * import { retrieveRun, selectRequired } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // P*, and the topics to retrieve for
 * await ws.upsert("runs", await retrieveRun(ws, { name: "bm25", k: 100 }));
 * const { table, figures } = contextReport(await evaluateContexts(ws));
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function contextReport(
  result: ContextEvaluationResult,
  opts: ContextReportOptions = {},
): ContextReport {
  const dataset = opts.dataset ?? "sample";
  const palette = contextPalette(opts.palette ?? { series: {}, order: [] }, result.conditions);
  const reference = result.conditions.filter((c) => c.kind !== "run").map((c) => c.label);
  const notes = [
    ...(opts.notes ?? []),
    `Den: w = 0.5, ${result.tokenizer} tokens; P and RPrec count required passages (grade 3).`,
  ];
  // The cells show the means (stored run means where stored), never a re-average.
  const counts = Object.values(result.topicCounts);
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  // A context the measure step did not store stays as a blank row (named in the notes).
  const mean = new Map(result.means.map((m) => [`${m.run}\u0000${m.measure}`, m.value]));
  const ordered = [
    ...result.conditions.filter((c) => c.kind === "run"),
    ...result.conditions.filter((c) => c.kind !== "run"),
  ];
  const table = makeTable({
    columns: result.measures.map((m) => ({ key: m, label: m, direction: "higher" as const })),
    rows: ordered.map((c) => ({
      label: c.label,
      ...(reference.includes(c.label) ? { group: "reference" } : {}),
      values: Object.fromEntries(
        result.measures.map((m) => [m, mean.get(`${c.label}\u0000${m}`) ?? null]),
      ),
    })),
    rowHeader: "Context",
    caption:
      `Retrieval contexts on ${dataset}: sub-question coverage, diversity, density and relevance`,
    label: "tab:context-eval",
    notes: [
      ...notes,
      ...(counts.length
        ? [lo === hi ? `Mean over ${lo} topics.` : `Mean over ${lo} to ${hi} topics per cell.`]
        : []),
    ],
  });
  const note = [...(opts.notes ?? []), `Den: w = 0.5, ${result.tokenizer} tokens.`].join(" ");
  const bars = barChart(
    result.means.filter((m) => ["Cov", "α-nDCG", "Den"].includes(m.measure)),
    {
      title: `Context quality on ${dataset}`,
      note,
      x: "measure",
      color: "run",
      y: "value",
      colorTitle: "context",
      yTitle: "mean over topics",
      yDomain: [0, 1],
      palette,
    },
  );
  const perTopic = topicChart(result.perTopic.filter((m) => m.measure === "Cov"), {
    title: `Sub-question coverage per topic on ${dataset}`,
    note,
    topic: "topicId",
    color: "run",
    y: "value",
    yTitle: "Cov",
    colorTitle: "context",
    palette,
  });
  return {
    table,
    figures: [{ name: "context_measures", spec: bars }, {
      name: "per_topic_coverage",
      spec: perTopic,
    }],
  };
}
