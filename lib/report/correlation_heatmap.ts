/**
 * Heatmap of a correlation matrix with the value printed in each cell.
 *
 * @module
 */
import { heatmapBody } from "./_heatmap.ts";
import { topLevel } from "./_style.ts";
import type { CorrelationPair } from "./correlation_table.ts";
import type { FigureOptions, VegaLiteSpec } from "./types.ts";

/** Options of {@linkcode correlationHeatmap}. */
export interface CorrelationHeatmapOptions extends FigureOptions {
  /** Fill (b, a) from (a, b) and 1 on the diagonal. Default true. */
  symmetric?: boolean;
  /**
   * Order of rows and columns (both the same, so self-cells lie on the
   * diagonal). Default: order of first appearance in `pairs`, rows and
   * columns alike.
   */
  order?: readonly string[];
  /** Display label per measure. */
  labels?: Record<string, string>;
  /** Legend title, e.g. `Kendall tau`. Default `correlation`. */
  valueTitle?: string;
  /** d3-format of the cell values. Default `.2f`. */
  format?: string;
  /** Cell size in points. Default 24. */
  cell?: number;
}

/**
 * A correlation matrix on a diverging red-blue scale fixed to [-1, 1] (red
 * negative, white 0, blue positive), each cell printed with its value. With
 * `symmetric` (default) the matrix is square over every measure named, with 1
 * on the diagonal; otherwise rows are the `a` and columns the `b` measures,
 * both axes in one order (`order`), so a self-cell lies on the diagonal.
 *
 * @param pairs Correlation per (a, b) pair, as for `correlationTable`; not modified.
 * @param opts Title (required), subtitle/note, `symmetric`, labels, format, cell size.
 * @returns A Vega-Lite v6 spec with the data inline (`{ a, b, value }` records).
 * @throws {RangeError} When a value is outside [-1, 1] or a pair is given twice with different values.
 * @example
 * ```ts
 * const spec = correlationHeatmap(
 *   [{ a: "Cov@10", b: "nDCG@10", value: 0.62 }],
 *   { title: "Kendall tau between measures", valueTitle: "tau" },
 * );
 * ```
 */
export function correlationHeatmap(
  pairs: readonly CorrelationPair[],
  opts: CorrelationHeatmapOptions,
): VegaLiteSpec {
  const symmetric = opts.symmetric ?? true;
  const label = (m: string) => opts.labels?.[m] ?? m;
  const cells = new Map<string, { a: string; b: string; value: number }>();
  const rows: string[] = [];
  const cols: string[] = [];
  const put = (a: string, b: string, value: number) => {
    const key = `${a}\u0000${b}`;
    const old = cells.get(key);
    if (old && old.value !== value) {
      throw new RangeError(
        `Cannot build correlation heatmap: (${a}, ${b}) is given as ${old.value} and ${value}; give each pair once`,
      );
    }
    cells.set(key, { a: label(a), b: label(b), value });
  };
  for (const p of pairs) {
    if (!(p.value >= -1 && p.value <= 1)) {
      throw new RangeError(
        `Cannot build correlation heatmap: (${p.a}, ${p.b}) has value ${p.value}; correlations lie in [-1, 1]`,
      );
    }
    for (const m of symmetric ? [p.a, p.b] : [p.a]) if (!rows.includes(m)) rows.push(m);
    for (const m of symmetric ? [p.a, p.b] : [p.b]) if (!cols.includes(m)) cols.push(m);
    put(p.a, p.b, p.value);
    if (symmetric) put(p.b, p.a, p.value);
  }
  if (symmetric) {
    for (const m of rows) if (!cells.has(`${m}\u0000${m}`)) put(m, m, 1);
  }
  // One order on both axes: given, else first appearance as row or column.
  const axis = [
    ...(opts.order ?? []),
    ...[...rows, ...cols].filter((m) => !opts.order?.includes(m)),
  ].filter((m, i, all) => all.indexOf(m) === i && (rows.includes(m) || cols.includes(m)));
  const values = axis.flatMap((r) =>
    axis.flatMap((c) => {
      const cell = cells.get(`${r}\u0000${c}`);
      return cell ? [cell] : [];
    })
  );
  const body = heatmapBody({
    x: { field: "b", title: "", sort: axis.map(label) },
    y: { field: "a", title: "", sort: axis.map(label) },
    color: {
      field: "value",
      type: "quantitative",
      scale: { domain: [-1, 1], scheme: "redblue", domainMid: 0 },
      legend: { title: opts.valueTitle ?? "correlation" },
    },
    text: { field: "value", type: "quantitative", format: opts.format ?? ".2f" },
    lightText: "abs(datum.value) > 0.6",
    cell: opts.cell ?? 24,
  });
  // Title lines wrap to the matrix plus its labels and legend, not to a full page width.
  return topLevel(opts, values, body, axis.length * (opts.cell ?? 24) + 230);
}
