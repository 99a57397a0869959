/**
 * Grouped bar chart of measure values per condition or pipeline.
 *
 * @module
 */
import { distinct, pick, topLevel } from "./_style.ts";
import type { FigureOptions, VegaLiteSpec } from "./types.ts";

/** Options of {@linkcode barChart}. */
export interface BarChartOptions extends FigureOptions {
  /** Field naming the groups along the x axis. Default `measure`. */
  x?: string;
  /** Field naming the bars within a group (coloured, with a legend). Default `run`. */
  color?: string;
  /** Field holding the bar height. Default `value`. */
  y?: string;
  /** Axis and legend titles. Defaults: no x title, `y` field name, `color` field name. */
  xTitle?: string;
  yTitle?: string;
  colorTitle?: string;
  /** Fixed y domain, e.g. `[0, 1]` for coverage. Default: from the data, from 0. */
  yDomain?: [number, number];
  /** Print each bar's value above it. Default false. */
  showValues?: boolean;
  /** d3-format of the printed values and tooltips. Default `.3f`. */
  format?: string;
}

/**
 * A grouped bar chart: one group per `x` value (e.g. a measure), one bar per
 * `color` value (e.g. a run or condition) inside it, groups and bars in order
 * of first appearance in the data. Typical input: metric rows with
 * `topicId === "all"`, or means computed by the caller.
 *
 * @param data Records with the `x`, `color` and `y` fields; copied, not modified.
 * @param opts Title (required), subtitle/note, fields, titles, domain, size
 *   (default width 360, height 220).
 * @returns A Vega-Lite v6 spec with the data inline.
 * @throws {TypeError} When the title is empty or a record lacks a field.
 * @example
 * ```ts
 * const spec = barChart(
 *   [{ run: "bm25", measure: "Cov@10", value: 0.61 }, { run: "dense", measure: "Cov@10", value: 0.66 }],
 *   { title: "Coverage by pipeline", note: "offline backends: lexical judge" },
 * );
 * ```
 */
export function barChart(
  data: readonly object[],
  opts: BarChartOptions,
): VegaLiteSpec {
  const x = opts.x ?? "measure";
  const color = opts.color ?? "run";
  const y = opts.y ?? "value";
  const values = pick("bar chart", data, { numeric: [y], text: [x, color] });
  const format = opts.format ?? ".3f";
  const bars: Record<string, unknown>[] = [{ mark: { type: "bar" } }];
  if (opts.showValues) {
    bars.push({
      mark: { type: "text", dy: -4, baseline: "bottom", fontSize: 9 },
      encoding: { text: { field: y, type: "quantitative", format }, color: { value: "#222222" } },
    });
  }
  return topLevel(opts, values, {
    width: opts.width ?? 360,
    height: opts.height ?? 220,
    encoding: {
      x: {
        field: x,
        type: "nominal",
        sort: distinct(values, x),
        title: opts.xTitle ?? null,
        axis: { labelAngle: 0, labelLimit: 140 },
      },
      xOffset: { field: color, type: "nominal", sort: distinct(values, color) },
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
        { field: x, type: "nominal" },
        { field: color, type: "nominal" },
        { field: y, type: "quantitative", format },
      ],
    },
    layer: bars,
  });
}
