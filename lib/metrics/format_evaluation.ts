/**
 * Rendering of evaluation results as text: an aligned table, CSV, or the JSON
 * object `crux eval --format json` prints.
 *
 * @module
 */
import type { EvaluationResult } from "./evaluate.ts";

/** Output format of {@linkcode formatEvaluation}. */
export type EvaluationFormat = "table" | "json" | "csv";

/** Options of {@linkcode formatEvaluation}. */
export interface FormatEvaluationOptions {
  /** Include per-topic values. Default false. */
  perQuery?: boolean;
  /** Digits after the decimal point in the table format. Default 4. */
  digits?: number;
}

/**
 * Renders an evaluation.
 * - `json`: one object. For one run `{"aggregate": {measure: value}, "topics": n,
 *   "perQuery": [{run, topicId, measure, value}]}` (perQuery only when asked);
 *   for several runs `{"runs": [{"run", "aggregate", "topics", "perQuery"?}]}`.
 *   Aggregates with no averaged topic are `null`.
 * - `csv`: long format `run,topic,measure,value`, aggregates with topic `all`.
 * - `table`: one row per run (run, measures, topics), then per-topic rows when asked.
 *
 * @param result What {@linkcode evaluate} returned.
 * @param format `table`, `json` or `csv`.
 * @param opts `perQuery` (default false), `digits` (default 4).
 * @returns The text, ending with a newline.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate, formatEvaluation } from "@lib/metrics/mod.ts";
 * const rows = [{ run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 }];
 * const qrels = [{ topicId: "q1", docId: "d1", grade: 1 }];
 * assert.equal(formatEvaluation(evaluate(rows, ["P@10"], { qrels }), "json"), '{"aggregate":{"P@10":0.1},"topics":1}\n');
 * ```
 */
export function formatEvaluation(
  result: EvaluationResult,
  format: EvaluationFormat,
  opts: FormatEvaluationOptions = {},
): string {
  if (format === "json") return formatJson(result, opts.perQuery ?? false) + "\n";
  if (format === "csv") return formatCsv(result, opts.perQuery ?? false);
  return formatTable(result, opts.perQuery ?? false, opts.digits ?? 4);
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

function formatJson(result: EvaluationResult, perQuery: boolean): string {
  const one = result.runs.map((run) => {
    const aggregate: Record<string, number | null> = {};
    for (const m of result.measures) aggregate[m] = finite(run.aggregate[m]);
    const out: Record<string, unknown> = { aggregate, topics: run.topics };
    if (perQuery) out.perQuery = result.perTopic.filter((r) => r.run === run.run);
    return { run: run.run, out };
  });
  if (one.length === 1) return JSON.stringify(one[0].out);
  return JSON.stringify({ runs: one.map((r) => ({ run: r.run, ...r.out })) });
}

function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function formatCsv(result: EvaluationResult, perQuery: boolean): string {
  const lines = ["run,topic,measure,value"];
  const rows = perQuery ? [...result.perTopic, ...result.aggregates] : result.aggregates;
  for (const r of rows) {
    const value = Number.isFinite(r.value) ? String(r.value) : "";
    lines.push([r.run, r.topicId, r.measure].map(csvField).join(",") + "," + value);
  }
  return lines.join("\n") + "\n";
}

function formatTable(result: EvaluationResult, perQuery: boolean, digits: number): string {
  const show = (v: number) => Number.isFinite(v) ? v.toFixed(digits) : "-";
  const header = ["run", ...result.measures, "topics"];
  const rows = result.runs.map((r) => [
    r.run,
    ...result.measures.map((m) => show(r.aggregate[m])),
    String(r.topics),
  ]);
  const lines = align([header, ...rows]);
  if (perQuery) {
    lines.push("");
    lines.push(
      ...align([
        ["run", "topic", "measure", "value"],
        ...result.perTopic.map((r) => [r.run, r.topicId, r.measure, show(r.value)]),
      ]),
    );
  }
  return lines.join("\n") + "\n";
}

function align(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) =>
    r.map((cell, c) => c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])).join("  ")
      .trimEnd()
  );
}
