/**
 * Line chart, e.g. coverage against the retrieval cutoff.
 *
 * @module
 */
import { coinciding } from "./_overlap.ts";
import {
  DOUBLE,
  focusOpacity,
  focusParam,
  MAX_LINES,
  names,
  pick,
  seriesEncodings,
  SINGLE,
  topLevel,
} from "./_style.ts";
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
  /** Lines above which the chart becomes small multiples (one panel per line). Default 8. */
  maxLines?: number;
}

/**
 * One line with points per `color` value (e.g. a run) over a quantitative x
 * (e.g. the cutoff k of `Cov@k`), lines in order of first appearance, each
 * with its palette colour and marker shape. More than `maxLines` lines become
 * small multiples (three panels a row); lines equal at every x are named in
 * the subtitle.
 *
 * @param data Records with the `x`, `y` and `color` fields; copied, not modified.
 * @param opts Title (required), subtitle/note, fields, titles, scales, palette, size
 *   (default 200 x 150 pt).
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
  const drawn = names(values, color);
  const enc = seriesEncodings(color, drawn, opts.colorTitle ?? color, opts.palette);
  const same = coinciding(values, color, x, y);
  const subtitle = [
    opts.subtitle,
    same.length ? `equal at every ${x}: ${same.map((g) => g.join(" = ")).join("; ")}` : "",
  ].filter(Boolean).join("; ");
  const facets = drawn.length > (opts.maxLines ?? MAX_LINES);
  const inner = {
    width: opts.width ?? (facets ? 130 : SINGLE - 20),
    height: opts.height ?? (facets ? 90 : 150),
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
      color: enc.color,
      tooltip: [
        { field: color, type: "nominal" },
        { field: x, type: "quantitative" },
        { field: y, type: "quantitative", format: ".3f" },
      ],
    },
    layer: [
      { mark: { type: "line", strokeWidth: 1.5 }, encoding: { opacity: focusOpacity(1, 0.1) } },
      {
        params: [focusParam(color)],
        mark: { type: "point", filled: true, size: 24, opacity: 1 },
        encoding: { shape: enc.shape, opacity: focusOpacity() },
      },
    ],
  };
  if (!facets) return topLevel({ ...opts, subtitle }, values, inner, inner.width + 170);
  return topLevel({ ...opts, subtitle }, values, {
    facet: { field: color, type: "nominal", sort: drawn, title: null },
    columns: 3,
    spec: inner,
  }, DOUBLE);
}
