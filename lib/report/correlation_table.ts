/**
 * Building a correlation table from measure pairs.
 *
 * @module
 */
import { table } from "./table.ts";
import type { Direction, Table } from "./types.ts";

/** A correlation between two measures (e.g. Kendall tau between system rankings). */
export interface CorrelationPair {
  a: string;
  b: string;
  value: number;
}

/** Options of {@linkcode correlationTable}. */
export interface CorrelationTableOptions {
  /**
   * Square matrix: measures on both axes, (b, a) filled from (a, b), 1 on the
   * diagonal unless given. Default false: rows are the `a` measures, columns
   * the `b` measures.
   */
  symmetric?: boolean;
  /** Row measures, in order. Default: order of first appearance. */
  rows?: string[];
  /** Column measures, in order. Default: order of first appearance. */
  columns?: string[];
  /** Display label per measure. */
  labels?: Record<string, string>;
  /** Digits after the decimal point. Default 3. */
  decimals?: number;
  /** Mark the highest/lowest correlation per column. Default `none`. */
  direction?: Direction;
  /** Header of the row-label column. Default `Measure`. */
  rowHeader?: string;
  caption?: string;
  label?: string;
  /** Notes under the table, e.g. `Kendall tau-b over 12 runs` and the backend label. */
  notes?: string[];
}

/**
 * Arrange correlations computed by the caller (e.g. `kendallTau` per measure
 * pair) as a table: one row per measure of the first kind and one column per
 * measure of the second, or a square matrix with `symmetric`. Missing pairs are
 * null cells.
 *
 * @param pairs Correlation per (a, b) measure pair; not modified.
 * @param opts Layout, order, labels, decimals, caption and notes.
 * @returns A validated table ready for any renderer.
 * @throws {RangeError} When a pair is given twice with different values, or a
 *   value lies outside [-1, 1].
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const t = correlationTable(
 *   [{ a: "Cov@10", b: "Cov(report)", value: 0.81 }, { a: "nDCG@10", b: "Cov(report)", value: 0.42 }],
 *   { notes: ["Kendall tau-b over 8 runs"] },
 * );
 * assert.deepEqual(t.rows.map((r) => r.label), ["Cov@10", "nDCG@10"]);
 * assert.deepEqual(t.columns.map((c) => c.label), ["Cov(report)"]);
 * ```
 */
export function correlationTable(
  pairs: CorrelationPair[],
  opts: CorrelationTableOptions = {},
): Table {
  const symmetric = opts.symmetric ?? false;
  const cells = new Map<string, number>();
  const rowSeen: string[] = [];
  const colSeen: string[] = [];
  const put = (a: string, b: string, value: number, i: number) => {
    const key = `${a}\u0000${b}`;
    const old = cells.get(key);
    if (old !== undefined && old !== value) {
      throw new RangeError(
        `Cannot build correlation table: pair ${
          i + 1
        } gives (${a}, ${b}) = ${value}, but it is already ${old}; give each pair once`,
      );
    }
    cells.set(key, value);
  };
  pairs.forEach((p, i) => {
    if (!(p.value >= -1 && p.value <= 1)) {
      throw new RangeError(
        `Cannot build correlation table: pair ${
          i + 1
        } (${p.a}, ${p.b}) has value ${p.value}; correlations lie in [-1, 1]`,
      );
    }
    for (const m of symmetric ? [p.a, p.b] : [p.a]) if (!rowSeen.includes(m)) rowSeen.push(m);
    for (const m of symmetric ? [p.a, p.b] : [p.b]) if (!colSeen.includes(m)) colSeen.push(m);
    put(p.a, p.b, p.value, i);
    if (symmetric) put(p.b, p.a, p.value, i);
  });
  const rows = opts.rows ?? rowSeen;
  const columns = opts.columns ?? (symmetric ? rows : colSeen);
  const label = (m: string) => opts.labels?.[m] ?? m;
  return table({
    columns: columns.map((m) => ({
      key: m,
      label: label(m),
      decimals: opts.decimals,
      direction: opts.direction ?? "none",
    })),
    rows: rows.map((r) => ({
      label: label(r),
      values: Object.fromEntries(
        columns.map((c) => [c, cells.get(`${r}\u0000${c}`) ?? (symmetric && r === c ? 1 : null)]),
      ),
    })),
    rowHeader: opts.rowHeader ?? "Measure",
    caption: opts.caption,
    label: opts.label,
    notes: opts.notes,
  });
}
