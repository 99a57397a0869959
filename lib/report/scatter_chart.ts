/**
 * Scatter plot with a fitted line, e.g. a context measure against a report measure.
 *
 * @module
 */
import { PALETTE, pick, topLevel } from "./_style.ts";
import type { FigureOptions, VegaLiteSpec } from "./types.ts";

/** Options of {@linkcode scatterChart}. */
export interface ScatterChartOptions extends FigureOptions {
  /** Quantitative x field (e.g. `contextCov`). */
  x: string;
  /** Quantitative y field (e.g. `reportCov`). */
  y: string;
  /** Field printed next to each point (e.g. `run`). Default: none. */
  label?: string;
  /** Field colouring the points. Default: one colour. */
  color?: string;
  xTitle?: string;
  yTitle?: string;
  colorTitle?: string;
  /** Draw the least-squares line of y on x. Default true. */
  fit?: boolean;
}

/**
 * Points of `y` against `x`, with the ordinary least-squares line (Vega-Lite's
 * `regression` transform, linear) and optional point labels. The caller puts
 * the correlation in the subtitle, e.g. `Kendall tau = 0.81`.
 *
 * @param data Records with the `x`, `y` (and `label`, `color`) fields; copied, not modified.
 * @param opts Title (required), subtitle/note, fields, titles, size (default 320 x 260).
 * @returns A Vega-Lite v6 spec with the data inline.
 * @throws {TypeError} When the title is empty or a record lacks a field.
 * @example
 * ```ts
 * const spec = scatterChart(
 *   [{ run: "bm25", contextCov: 0.5, reportCov: 0.4 }, { run: "dense", contextCov: 0.7, reportCov: 0.55 }],
 *   { title: "Context vs report coverage", x: "contextCov", y: "reportCov", label: "run" },
 * );
 * ```
 */
export function scatterChart(
  data: readonly object[],
  opts: ScatterChartOptions,
): VegaLiteSpec {
  const { x, y } = opts;
  const text = [opts.label, opts.color].filter((f): f is string => f !== undefined);
  const values = pick("scatter chart", data, { numeric: [x, y], text });
  const xEnc = { field: x, type: "quantitative", title: opts.xTitle ?? x, scale: { zero: false } };
  const yEnc = { field: y, type: "quantitative", title: opts.yTitle ?? y, scale: { zero: false } };
  const layers: Record<string, unknown>[] = [];
  if (opts.fit ?? true) {
    layers.push({
      transform: [{ regression: y, on: x }],
      mark: { type: "line", color: "#777777", strokeDash: [5, 3], strokeWidth: 1.5 },
    });
  }
  layers.push({
    mark: {
      type: "point",
      filled: true,
      size: 60,
      opacity: 1,
      ...(opts.color ? {} : { color: PALETTE[0] }),
    },
    encoding: {
      ...(opts.color
        ? { color: { field: opts.color, type: "nominal", title: opts.colorTitle ?? opts.color } }
        : {}),
      tooltip: [
        ...text.map((f) => ({ field: f, type: "nominal" })),
        { field: x, type: "quantitative", format: ".3f" },
        { field: y, type: "quantitative", format: ".3f" },
      ],
    },
  });
  if (opts.label) {
    layers.push({
      mark: { type: "text", align: "left", dx: 6, dy: -4, fontSize: 9, color: "#333333" },
      encoding: { text: { field: opts.label, type: "nominal" } },
    });
  }
  return topLevel(opts, values, {
    width: opts.width ?? 320,
    height: opts.height ?? 260,
    encoding: { x: xEnc, y: yEnc },
    layer: layers,
  });
}
