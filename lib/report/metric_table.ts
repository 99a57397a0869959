/**
 * Building a run x measure table from long-format metric rows.
 *
 * @module
 */
import { meanTopicId } from "@lib/store/mod.ts";
import type { MetricRow } from "@lib/types/records.ts";
import { table } from "./table.ts";
import type { Direction, Table, TableRow } from "./types.ts";

/** Options of {@linkcode metricTable}. */
export interface MetricTableOptions {
  /** Runs to show, in order. Default: every run, in order of first appearance. */
  runs?: string[];
  /** Measures to show, in order. Default: every measure, in order of first appearance. */
  measures?: string[];
  /** Display label per run (default: the run name). */
  runLabels?: Record<string, string>;
  /** Display label per measure (default: the measure string). */
  measureLabels?: Record<string, string>;
  /** Column group per measure, e.g. `{ "Cov@10": "Retrieval" }`. */
  measureGroups?: Record<string, string>;
  /** Direction per measure. Default `defaultDirection`. */
  directions?: Record<string, Direction>;
  /** Direction of measures not in `directions`. Default `higher`. */
  defaultDirection?: Direction;
  /** Runs shown as reference rows (after the others, never marked best/worst). */
  reference?: string[];
  /** Digits after the decimal point. Default 3. */
  decimals?: number;
  /** Table caption. */
  caption?: string;
  /** LaTeX label. */
  label?: string;
  /** Notes under the table (put the backend label here, see `backendNote`). */
  notes?: string[];
  /** Header of the run column. Default `Run`. */
  rowHeader?: string;
  /** Append a note saying over how many topics the means are taken. Default true. */
  topicNote?: boolean;
}

/**
 * Build a table with one row per run and one column per measure, each cell the
 * arithmetic mean of the run's per-topic values of that measure. Rows whose
 * `topicId` is `all` are aggregates: they are used only for a (run, measure)
 * pair with no per-topic rows. A pair with no rows is a null cell. Which topics
 * enter the mean is the caller's (the evaluator's) decision; this function
 * averages what it is given.
 *
 * @param rows Metric rows (long format); not modified.
 * @param opts Selection, order, labels, directions, reference runs, caption, notes.
 * @returns A validated table ready for any renderer.
 * @throws {RangeError} When `runs`/`measures`/`reference` name something absent from `rows`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const t = metricTable([
 *   { run: "bm25", topicId: "t1", measure: "Cov@10", value: 0.5 },
 *   { run: "bm25", topicId: "t2", measure: "Cov@10", value: 0.7 },
 * ], { notes: ["offline backends: lexical judge"] });
 * assert.equal(t.rows[0].values["Cov@10"], 0.6);
 * assert.equal(t.notes?.at(-1), "Mean over 2 topics.");
 * ```
 */
export function metricTable(rows: MetricRow[], opts: MetricTableOptions = {}): Table {
  const sums = new Map<string, { sum: number; n: number }>();
  const aggregates = new Map<string, number>();
  const runsSeen: string[] = [];
  const measuresSeen: string[] = [];
  for (const r of rows) {
    if (!runsSeen.includes(r.run)) runsSeen.push(r.run);
    if (!measuresSeen.includes(r.measure)) measuresSeen.push(r.measure);
    const key = `${r.run}\u0000${r.measure}`;
    if (r.topicId === "all") {
      aggregates.set(key, r.value);
      continue;
    }
    // A dataset's mean is not a topic.
    if (meanTopicId.is(r.topicId)) continue;
    const s = sums.get(key) ?? { sum: 0, n: 0 };
    sums.set(key, { sum: s.sum + r.value, n: s.n + 1 });
  }
  const check = (what: string, wanted: string[] | undefined, seen: string[]) => {
    for (const w of wanted ?? []) {
      if (!seen.includes(w)) {
        throw new RangeError(
          `Cannot build metric table: ${what} "${w}" has no metric rows; known: ${seen.join(", ")}`,
        );
      }
    }
  };
  check("run", opts.runs, runsSeen);
  check("measure", opts.measures, measuresSeen);
  check("reference run", opts.reference, runsSeen);
  const measures = opts.measures ?? measuresSeen;
  const reference = new Set(opts.reference ?? []);
  const runs = opts.runs ?? runsSeen;
  const ordered = [
    ...runs.filter((r) => !reference.has(r)),
    ...runs.filter((r) => reference.has(r)),
  ];
  const counts = new Set<number>();
  const tableRows: TableRow[] = ordered.map((run) => {
    const values: Record<string, number | null> = {};
    for (const m of measures) {
      const key = `${run}\u0000${m}`;
      const s = sums.get(key);
      if (s) counts.add(s.n);
      values[m] = s ? s.sum / s.n : aggregates.get(key) ?? null;
    }
    const row: TableRow = { label: opts.runLabels?.[run] ?? run, values };
    return reference.has(run) ? { ...row, group: "reference" } : row;
  });
  const notes = [...(opts.notes ?? [])];
  if ((opts.topicNote ?? true) && counts.size > 0) {
    const lo = Math.min(...counts);
    const hi = Math.max(...counts);
    const word = (n: number) => (n === 1 ? "topic" : "topics");
    notes.push(
      lo === hi ? `Mean over ${lo} ${word(lo)}.` : `Mean over ${lo} to ${hi} topics per cell.`,
    );
  }
  return table({
    columns: measures.map((m) => ({
      key: m,
      label: opts.measureLabels?.[m] ?? m,
      group: opts.measureGroups?.[m],
      decimals: opts.decimals,
      direction: opts.directions?.[m] ?? opts.defaultDirection ?? "higher",
    })),
    rows: tableRows,
    rowHeader: opts.rowHeader,
    caption: opts.caption,
    label: opts.label,
    notes,
  });
}
