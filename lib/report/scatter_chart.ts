/**
 * Scatter plot with a fitted line, e.g. a context measure against a report measure.
 *
 * @module
 */
import {
  focusOpacity,
  focusParam,
  names,
  pick,
  seriesEncodings,
  SINGLE,
  topLevel,
} from "./_style.ts";
import type { FigureOptions, VegaLiteSpec } from "./types.ts";

/** Options of {@linkcode scatterChart}. */
export interface ScatterChartOptions extends FigureOptions {
  /** Quantitative x field (e.g. `contextCov`). */
  x: string;
  /** Quantitative y field (e.g. `reportCov`). */
  y: string;
  /** Field printed next to each point (e.g. `run`). Default: none. */
  label?: string;
  /** Field colouring (and shaping) the points. Default: one colour. */
  color?: string;
  xTitle?: string;
  yTitle?: string;
  colorTitle?: string;
  /** Draw the least-squares line of y on x. Default true. */
  fit?: boolean;
  /**
   * Values of the `color` field whose points the line is fitted to (e.g. the
   * pipelines, leaving out reference conditions). Default: every point.
   */
  fitOn?: readonly string[];
  /** Field splitting the points into side-by-side panels (e.g. `dataset`), each with its own fit. */
  facet?: string;
}

/**
 * Points of `y` against `x`, with the ordinary least-squares line (Vega-Lite's
 * `regression` transform, linear; over `fitOn` points only when given) and
 * optional point labels. Points that coincide (equal at 3 decimals) are
 * dodged horizontally by 1.5% of the x range so each stays visible, and the
 * subtitle names them; tooltips give the exact values. With `facet`, one
 * panel per value (e.g. per dataset) side by side, each with its own line. The caller puts the
 * correlation in the subtitle, e.g. `Kendall tau_K = 0.81`.
 *
 * @param data Records with the `x`, `y` (and `label`, `color`) fields; copied, not modified.
 * @param opts Title (required), subtitle/note, fields, titles, palette, size (default 238 pt wide).
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
  const text = [
    ...new Set([opts.label, opts.color, opts.facet].filter((f): f is string => f !== undefined)),
  ];
  const values = pick("scatter chart", data, { numeric: [x, y], text });
  const ties = dodge(values, x, y, opts.label ?? opts.color, opts.facet);
  const xEnc = {
    field: "_x",
    type: "quantitative",
    title: opts.xTitle ?? x,
    scale: { zero: false, nice: true },
  };
  const yEnc = { field: y, type: "quantitative", title: opts.yTitle ?? y, scale: { zero: false } };
  const drawn = opts.color ? names(values, opts.color) : [];
  const enc = opts.color
    ? seriesEncodings(opts.color, drawn, opts.colorTitle ?? opts.color, opts.palette)
    : undefined;
  const layers: Record<string, unknown>[] = [];
  if (opts.fit ?? true) {
    const keep = opts.fitOn && opts.color
      ? [{ filter: { field: opts.color, oneOf: [...opts.fitOn] } }]
      : [];
    layers.push({
      transform: [...keep, { regression: y, on: x }, { calculate: `datum["${x}"]`, as: "_x" }],
      mark: { type: "line", color: "#777777", strokeDash: [4, 2], strokeWidth: 1 },
    });
  }
  layers.push({
    ...(enc ? { params: [focusParam(opts.color!)] } : {}),
    mark: { type: "point", filled: true, size: 36, ...(enc ? {} : { color: "#0072B2" }) },
    encoding: {
      ...(enc ? { color: enc.color, shape: enc.shape, opacity: focusOpacity() } : {}),
      tooltip: [
        ...text.map((f) => ({ field: f, type: "nominal" })),
        { field: x, type: "quantitative", format: ".3f" },
        { field: y, type: "quantitative", format: ".3f" },
      ],
    },
  });
  if (opts.label) {
    layers.push({
      mark: { type: "text", align: "left", dx: 5, dy: -3, fontSize: 7, color: "#333333" },
      encoding: { text: { field: opts.label, type: "nominal" } },
    });
  }
  const subtitle = ties.length
    ? [opts.subtitle, `coincide (dodged): ${ties.map((g) => g.join(" = ")).join("; ")}`]
      .filter(Boolean).join("; ")
    : opts.subtitle;
  const panels = opts.facet ? names(values, opts.facet) : [];
  const width = opts.width ??
    (panels.length > 1
      ? Math.max(120, Math.floor(320 / panels.length))
      : enc
      ? SINGLE - 20
      : SINGLE - 60);
  const inner = {
    width,
    height: opts.height ?? 170,
    encoding: { x: xEnc, y: yEnc },
    layer: layers,
  };
  const total = (panels.length || 1) * (width + 10) + (enc ? 130 : 60);
  if (panels.length <= 1) return topLevel({ ...opts, subtitle }, values, inner, total);
  return topLevel({ ...opts, subtitle }, values, {
    facet: { column: { field: opts.facet, type: "nominal", sort: panels, title: null } },
    spec: inner,
  }, total);
}

/** Set `_x` to x, dodging points that coincide; returns the names of each tied group. */
function dodge(
  values: Record<string, unknown>[],
  x: string,
  y: string,
  name: string | undefined,
  facet: string | undefined,
): string[][] {
  const xs = values.map((v) => v[x] as number);
  const span = Math.max(...xs) - Math.min(...xs) || 0.1;
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const v of values) {
    v._x = v[x];
    const panel = facet ? `${v[facet]} ` : "";
    const key = `${panel}${(v[x] as number).toFixed(3)} ${(v[y] as number).toFixed(3)}`;
    groups.set(key, [...(groups.get(key) ?? []), v]);
  }
  const ties: string[][] = [];
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    g.forEach((v, i) => (v._x = (v[x] as number) + (i - (g.length - 1) / 2) * 0.015 * span));
    const where = facet ? `${g[0][facet]}: ` : "";
    if (name) ties.push(g.map((v, i) => `${i === 0 ? where : ""}${v[name]}`));
  }
  return ties;
}
