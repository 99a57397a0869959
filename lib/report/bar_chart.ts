/**
 * Grouped bar chart of measure values per condition or pipeline.
 *
 * @module
 */
import {
  DOUBLE,
  focusOpacity,
  focusParam,
  names,
  pick,
  seriesEncodings,
  topLevel,
} from "./_style.ts";
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
  /**
   * A reference value per x group drawn as a black dash across the group (not
   * in the legend; name it in the subtitle), e.g. the token budget per topic:
   * records with the `x` and `y` fields.
   */
  reference?: readonly object[];
  /** Most x groups per row; more wrap into rows. Default: as many as fit 7 inches. */
  wrap?: number;
  /**
   * One panel per x group, each with its own y scale titled with the group,
   * for groups measured on different scales (e.g. scores in [0, 1] beside a
   * rating that exceeds 1). Default false: one shared y scale.
   */
  panels?: boolean;
  /** With `panels`, the y range per group; other groups span 0 to their largest value. */
  yDomains?: Readonly<Record<string, [number, number]>>;
}

/**
 * A grouped bar chart: one group per `x` value (e.g. a measure), one bar per
 * `color` value (e.g. a run or condition) inside it, groups and bars in order
 * of first appearance in the data. The width follows the data (about 4 pt per
 * bar); groups that do not fit a double-column figure wrap into rows (a
 * vertical concatenation sharing the y scale). Bars follow the palette's order. Series
 * whose bars are all zero are not drawn and are named in the subtitle instead
 * of the legend. Clicking a legend entry or bar highlights that series.
 *
 * @param data Records with the `x`, `color` and `y` fields; copied, not modified.
 * @param opts Title (required), subtitle/note, fields, titles, domain, palette,
 *   reference dashes, wrap, panels with their own y scales, size (default height 150 per row).
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
  const all = pick("bar chart", data, { numeric: [y], text: [x, color] });
  const refs = opts.reference
    ? pick("bar chart reference", opts.reference, { numeric: [y], text: [x] })
      .map((r): Record<string, unknown> => ({ ...r, _ref: true }))
    : [];
  const series = names(all, color);
  const zero = series.filter((s) => all.every((r) => String(r[color]) !== s || r[y] === 0));
  const values = all.filter((r) => !zero.includes(String(r[color])));
  const drawn = series.filter((s) => !zero.includes(s));
  const groups = names([...values, ...refs], x);
  const format = opts.format ?? ".3f";
  const enc = seriesEncodings(color, drawn, opts.colorTitle ?? color, opts.palette);
  const slots = enc.palette.order.filter((s) => drawn.includes(s)); // bars in legend order
  const groupW = Math.max(16, drawn.length * 4 + 6);
  const legendW = drawn.length > 1 ? 120 : 0;
  const maxPlot = DOUBLE - 60 - legendW;
  const perRow = opts.wrap ?? Math.max(1, Math.floor(maxPlot / groupW));
  const rows = Math.ceil(groups.length / perRow);
  const width = opts.width ?? Math.max(120, Math.min(groups.length, perRow) * groupW);
  const height = opts.height ?? (rows > 2 ? 80 : rows > 1 ? 100 : 150);
  const longest = Math.max(0, ...groups.map((g) => g.length));
  const xEnc = {
    field: x,
    type: "nominal",
    sort: groups,
    title: opts.xTitle ?? null,
    // Rotated labels do not collide when a group is wider than the 8 pt text line.
    axis: longest * 5 > groupW
      ? { labelAngle: -45, labelAlign: "right", labelLimit: 90, labelOverlap: groupW < 12 }
      : { labelAngle: 0, labelLimit: 90 },
  };
  const yEnc = {
    field: y,
    type: "quantitative",
    title: opts.yTitle ?? y,
    ...(opts.yDomain ? { scale: { domain: opts.yDomain } } : {}),
  };
  const layers: Record<string, unknown>[] = [{
    transform: [{ filter: "!datum._ref" }],
    params: [focusParam(color)],
    mark: { type: "bar" },
    encoding: {
      xOffset: { field: color, type: "nominal", sort: slots },
      color: enc.color,
      opacity: focusOpacity(1, 0.25),
      tooltip: [
        { field: x, type: "nominal" },
        { field: color, type: "nominal" },
        { field: y, type: "quantitative", format },
      ],
    },
  }];
  if (opts.showValues) {
    layers.push({
      transform: [{ filter: "!datum._ref" }],
      mark: { type: "text", dy: -3, baseline: "bottom", fontSize: 7 },
      encoding: {
        xOffset: { field: color, type: "nominal", sort: slots },
        text: { field: y, type: "quantitative", format },
        color: { value: "#222222" },
      },
    });
  }
  if (refs.length) {
    layers.push({
      transform: [{ filter: "datum._ref === true" }],
      mark: { type: "tick", color: "#222222", thickness: 1.5 },
      encoding: { tooltip: [{ field: x, type: "nominal" }, { field: y, type: "quantitative" }] },
    });
  }
  const shown = zero.length
    ? {
      ...opts,
      subtitle: [opts.subtitle, `not drawn (zero everywhere): ${zero.join(", ")}`]
        .filter(Boolean).join("; "),
    }
    : opts;
  const inner = { width, height, encoding: { x: xEnc, y: yEnc }, layer: layers };
  if (opts.panels && groups.length > 1) {
    // One panel per group, side by side while they fit, each its own y scale.
    const panelW = Math.max(60, drawn.length * 8 + 10);
    const columns = Math.max(1, Math.min(groups.length, Math.floor(maxPlot / (panelW + 45))));
    return topLevel(shown, [...values, ...refs], {
      concat: groups.map((g) => {
        const top = Math.max(0, ...values.filter((r) => r[x] === g).map((r) => r[y] as number));
        const domain = opts.yDomains?.[g] ?? opts.yDomain ?? [0, top || 1];
        return {
          ...inner,
          width: panelW,
          height: opts.height ?? 130,
          transform: [{ filter: { field: x, equal: g } }],
          encoding: {
            x: { ...xEnc, axis: { labelAngle: 0, labelLimit: panelW + 30 } },
            y: {
              ...yEnc,
              title: opts.yTitle ?? null,
              scale: { domain, nice: !opts.yDomains?.[g] },
            },
          },
        };
      }),
      columns,
      spacing: 12,
      resolve: { scale: { y: "independent" } },
    }, columns * (panelW + 45) + legendW + 20);
  }
  if (rows <= 1) {
    return topLevel(shown, [...values, ...refs], inner, width + legendW + 60);
  }
  // Rows as a vertical concatenation (each row its own x scale and width; the
  // y scale shared), since offset bars inside a facet with independent x collapse.
  const rowsData = [...values, ...refs].map((r) => ({
    ...r,
    _panel: Math.floor(groups.indexOf(String(r[x])) / perRow),
  }));
  return topLevel(shown, rowsData, {
    vconcat: Array.from({ length: rows }, (_, i) => ({
      ...inner,
      width: Math.min(perRow, groups.length - i * perRow) * groupW,
      transform: [{ filter: `datum._panel === ${i}` }],
    })),
    resolve: { scale: { y: "shared" } },
  }, width + legendW + 60);
}
