/**
 * Line chart, e.g. coverage against the retrieval cutoff.
 *
 * @module
 */
import { distinct, pick, topLevel } from "./_style.ts";
import type { FigureOptions, VegaLiteSpec } from "./types.ts";

/** Options of {@linkcode lineChart}. */
export interface LineChartOptions extends FigureOptions {
  /** Quantitative x field. Default `cutoff`. */
  x?: string;
  /** Quantitative y field. Default `value`. */
  y?: string;
  /** Field naming the lines. Default `run`. */
  color?: string;
  xTitle?: string;
  yTitle?: string;
  colorTitle?: string;
  /** Fixed y domain, e.g. `[0, 1]`. Default: from the data. */
  yDomain?: [number, number];
  /** x scale type. Default `linear`. */
  xScale?: "linear" | "log";
}

/**
 * One line with points per `color` value (e.g. a run) over a quantitative x
 * (e.g. the cutoff k of `Cov@k`), lines in order of first appearance.
 *
 * @param data Records with the `x`, `y` and `color` fields; copied, not modified.
 * @param opts Title (required), subtitle/note, fields, titles, scales, size
 *   (default width 360, height 220).
 * @returns A Vega-Lite v6 spec with the data inline.
 * @throws {TypeError} When the title is empty or a record lacks a field.
 * @example
 * ```ts
 * const spec = lineChart(
 *   [{ run: "bm25", cutoff: 5, value: 0.4 }, { run: "bm25", cutoff: 10, value: 0.6 }],
 *   { title: "Coverage vs cutoff", yTitle: "Cov@k", xTitle: "k" },
 * );
 * ```
 */
export function lineChart(
  data: readonly object[],
  opts: LineChartOptions,
): VegaLiteSpec {
  const x = opts.x ?? "cutoff";
  const y = opts.y ?? "value";
  const color = opts.color ?? "run";
  const values = pick("line chart", data, { numeric: [x, y], text: [color] });
  return topLevel(opts, values, {
    width: opts.width ?? 360,
    height: opts.height ?? 220,
    encoding: {
      x: {
        field: x,
        type: "quantitative",
        title: opts.xTitle ?? x,
        scale: { type: opts.xScale ?? "linear", zero: false },
      },
      y: {
        field: y,
        type: "quantitative",
        title: opts.yTitle ?? y,
        ...(opts.yDomain ? { scale: { domain: opts.yDomain } } : {}),
      },
      color: {
        field: color,
        type: "nominal",
        sort: distinct(values, color),
        title: opts.colorTitle ?? color,
      },
      tooltip: [
        { field: color, type: "nominal" },
        { field: x, type: "quantitative" },
        { field: y, type: "quantitative", format: ".3f" },
      ],
    },
    layer: [
      { mark: { type: "line", strokeWidth: 2 } },
      { mark: { type: "point", filled: true, size: 40, opacity: 1 } },
    ],
  });
}
