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
import { placeLabels } from "./_label_layout.ts";

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
  /** X axis range. Default: the data's range with a margin. */
  xDomain?: [number, number];
  /** Y axis range (e.g. `[0, 1]` for a score). Default: the data's range with a margin. */
  yDomain?: [number, number];
  /**
   * Draw points far from the rest on x (a gap wider than the span of the
   * others, e.g. a reference at 1.0 beside pipelines at 0.4-0.6) in a narrow
   * panel beside the main one, a broken x axis, named in the subtitle. Points
   * of `fitOn` series always stay in the main panel. Default true (not with
   * `facet` or `xDomain`).
   */
  breakAxis?: boolean;
  /**
   * The range of the y measure (e.g. `[0, 1]` for a score): the axis spans
   * the data with a margin but never beyond it. Ignored with `yDomain`.
   */
  yLimits?: [number, number];
}

/**
 * Points of `y` against `x`, with the ordinary least-squares line (Vega-Lite's
 * `regression` transform, linear; over `fitOn` points only when given) and
 * optional point labels, placed beside their points where they fit without
 * covering another label or point (farther away with a leader line), else
 * replaced by the colour and shape legend. The line is clipped to the plot,
 * the axes span the data (or `xDomain`, `yDomain`), and the subtitle names
 * what the fit leans on: points at (0, 0) and a point without which Pearson's
 * r moves by more than 0.15. Where one point alone carries the fit (without
 * it r changes sign or |r| moves by more than 0.3; with `facet`, over all
 * points), or where there are fewer than 4 points (leaving one out leaves a
 * pair, which any line fits), no line is drawn and the subtitle says so. Points that coincide
 * (equal at 3 decimals) are dodged horizontally by 4% of the x range so each stays visible, and the
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
  // Points far from the rest on x (e.g. the oracle at 1.0 beside pipelines
  // at 0.4-0.6) go to a narrow panel of their own: a broken x axis.
  const apart = opts.facet || opts.xDomain || opts.breakAxis === false
    ? new Map<Record<string, unknown>, Side>()
    : farApart(
      values,
      x,
      opts.fitOn && opts.color ? (v) => opts.fitOn!.includes(String(v[opts.color!])) : undefined,
    );
  for (const v of values) v._side = apart.get(v) ?? "main";
  const sides = (["left", "main", "right"] as const).filter((k) =>
    values.some((v) => v._side === k)
  );
  const ties = dodge(values, x, y, opts.label ?? opts.color, opts.facet);
  const yDomain = opts.yDomain ??
    clamp(padded(values.map((v) => v[y] as number)), opts.yLimits);
  const yEnc = {
    field: y,
    type: "quantitative",
    title: opts.yTitle ?? y,
    scale: { domain: yDomain, nice: false, zero: false },
  };
  const panels = opts.facet ? names(values, opts.facet) : [];
  const width = opts.width ??
    (panels.length > 1
      ? Math.max(120, Math.floor(320 / panels.length))
      : opts.color
      ? SINGLE - 20
      : SINGLE - 60);
  const SIDE_W = 34;
  const mainW = width - (sides.length - 1) * (SIDE_W + 6);
  const height = opts.height ?? 170;
  const domainOf = (side: Side) =>
    side === "main" && opts.xDomain
      ? opts.xDomain
      : padded(values.filter((v) => v._side === side).map((v) => v._x as number));
  const widthOf = (side: Side) => (side === "main" ? mainW : SIDE_W);
  // Direct labels where every one fits beside its point (with a leader line
  // when moved away); otherwise the colour and shape legend names the points.
  let labelled = false;
  if (opts.label) {
    labelled = true;
    const groups = panels.length
      ? panels.map((p) => values.filter((v) => String(v[opts.facet!]) === p))
      : sides.map((k) => values.filter((v) => v._side === k));
    for (const rows of groups) {
      const side = rows[0]._side as Side;
      const xd = domainOf(side);
      const w = panels.length ? width : widthOf(side);
      const places = placeLabels(
        rows.map((v) => ({
          px: scale(v._x as number, xd, w),
          py: height - scale(v[y] as number, yDomain, height),
          text: String(v[opts.label!]),
        })),
        w,
        height,
      );
      if (!places) {
        labelled = false;
        break;
      }
      rows.forEach((v, i) => {
        const b = places[i];
        v._lx = unscale(b.x1 + 1, xd, w);
        v._ly = unscale(height - (b.y1 + b.y2) / 2, yDomain, height);
        if (b.leader) {
          v._ax = unscale(b.leader.x, xd, w);
          v._ay = unscale(height - b.leader.y, yDomain, height);
        }
      });
    }
    if (!labelled) {
      for (const v of values) delete v._lx, delete v._ly, delete v._ax, delete v._ay;
    }
  }
  const colorField = opts.color ?? (opts.label && !labelled ? opts.label : undefined);
  const enc = colorField
    ? seriesEncodings(
      colorField,
      names(values, colorField),
      opts.colorTitle ?? colorField,
      opts.palette,
    )
    : undefined;
  if (labelled && enc && !opts.color) {
    enc.color.legend = null;
    enc.shape.legend = null;
  }
  const leans = opts.fit ?? true
    ? leaning(values, x, y, opts.label ?? opts.color, opts.fitOn, opts.color)
    : { notes: [], carried: false };
  const layersOf = (side: Side): Record<string, unknown>[] => {
    const only = sides.length > 1 ? [{ filter: { field: "_side", equal: side } }] : [];
    const layers: Record<string, unknown>[] = [];
    // No line where one point alone carries it (the subtitle says so).
    if ((opts.fit ?? true) && !leans.carried && side === "main") {
      const keep = opts.fitOn && opts.color
        ? [{ filter: { field: opts.color, oneOf: [...opts.fitOn] } }]
        : [];
      layers.push({
        transform: [...keep, { regression: y, on: x }, { calculate: `datum["${x}"]`, as: "_x" }],
        // Clipped to the plot: the line never stretches an axis past the measure's range.
        mark: { type: "line", color: "#777777", strokeDash: [4, 2], strokeWidth: 1, clip: true },
      });
    }
    layers.push({
      transform: only,
      ...(enc && side === sides[0] ? { params: [focusParam(colorField!)] } : {}),
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
    if (labelled && values.some((v) => v._side === side && v._ax !== undefined)) {
      layers.push({
        transform: [...only, { filter: "isValid(datum._ax)" }],
        mark: { type: "rule", color: "#999999", strokeWidth: 0.5 },
        encoding: { x2: { field: "_ax" }, y2: { field: "_ay" } },
      });
    }
    if (labelled) {
      layers.push({
        transform: only,
        mark: { type: "text", align: "left", baseline: "middle", fontSize: 7, color: "#333333" },
        encoding: {
          x: { field: "_lx", type: "quantitative" },
          y: { field: "_ly", type: "quantitative" },
          text: { field: opts.label, type: "nominal" },
        },
      });
    }
    return layers;
  };
  const xEncOf = (side: Side) => ({
    field: "_x",
    type: "quantitative",
    title: side === "main" ? opts.xTitle ?? x : null,
    scale: { domain: domainOf(side), nice: false, zero: false },
    ...(side === "main" ? {} : { axis: { tickCount: 1, format: ".2f" } }),
  });
  const name = (v: Record<string, unknown>) =>
    opts.label ?? opts.color ? String(v[(opts.label ?? opts.color)!]) : "a point";
  const broken = values.filter((v) => v._side !== "main");
  const subtitle = [
    opts.subtitle,
    ties.length ? `coincide (dodged): ${ties.map((g) => g.join(" = ")).join("; ")}` : "",
    ...leans.notes,
    broken.length
      ? `x axis broken: ${
        broken.map((v) => `${name(v)} (${(v[x] as number).toFixed(3)})`).join(", ")
      } in a narrow panel of its own`
      : "",
  ].filter(Boolean).join("; ");
  const total = (panels.length || 1) * (width + 10) + (enc && !labelled ? 130 : 60);
  const titled = { ...opts, subtitle };
  if (panels.length > 1) {
    return topLevel(titled, values, {
      facet: { column: { field: opts.facet, type: "nominal", sort: panels, title: null } },
      spec: { width, height, encoding: { x: xEncOf("main"), y: yEnc }, layer: layersOf("main") },
    }, total);
  }
  if (sides.length === 1) {
    return topLevel(
      titled,
      values,
      { width, height, encoding: { x: xEncOf("main"), y: yEnc }, layer: layersOf("main") },
      total,
    );
  }
  return topLevel(titled, values, {
    hconcat: sides.map((side, i) => ({
      width: widthOf(side),
      height,
      encoding: {
        x: xEncOf(side),
        y: i === 0
          ? yEnc
          : { ...yEnc, title: null, axis: { labels: false, ticks: false, domain: false } },
      },
      layer: layersOf(side),
    })),
    spacing: 6,
    resolve: { scale: { x: "independent", y: "shared" } },
  }, total);
}

type Side = "left" | "main" | "right";

/**
 * Points to draw apart on x: repeatedly the lowest or highest point when its
 * gap to the next one exceeds the span of the rest (at least 0.02), while at
 * at least three points stay (two with `keep`); points `keep` accepts (e.g. the pipelines) stay.
 */
function farApart(
  values: readonly Record<string, unknown>[],
  x: string,
  keep?: (v: Record<string, unknown>) => boolean,
): Map<Record<string, unknown>, Side> {
  const out = new Map<Record<string, unknown>, Side>();
  const rest = [...values].sort((a, b) => (a[x] as number) - (b[x] as number));
  // With kept points (pipelines) three points are enough to tell a reference apart.
  while (rest.length > (keep ? 2 : 3)) {
    const lowGap = (rest[1][x] as number) - (rest[0][x] as number);
    const highGap = (rest.at(-1)![x] as number) - (rest.at(-2)![x] as number);
    const spanLow = Math.max(0.02, (rest.at(-1)![x] as number) - (rest[1][x] as number));
    const spanHigh = Math.max(0.02, (rest.at(-2)![x] as number) - (rest[0][x] as number));
    if (highGap > spanHigh && highGap >= lowGap && !keep?.(rest.at(-1)!)) {
      out.set(rest.pop()!, "right");
    } else if (lowGap > spanLow && !keep?.(rest[0])) {
      out.set(rest.shift()!, "left");
    } else break;
  }
  return out;
}

/** A domain cut to `limits` (when given). */
function clamp(d: [number, number], limits?: [number, number]): [number, number] {
  return limits ? [Math.max(d[0], limits[0]), Math.min(d[1], limits[1])] : d;
}

/** The data range with 8% room on each side (0.1 either side of a single value). */
function padded(xs: readonly number[]): [number, number] {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const pad = hi > lo ? (hi - lo) * 0.08 : 0.1;
  return [lo - pad, hi + pad];
}

const scale = (v: number, d: [number, number], size: number) => (v - d[0]) / (d[1] - d[0]) * size;
const unscale = (px: number, d: [number, number], size: number) => d[0] + px / size * (d[1] - d[0]);

function pearsonOf(pts: readonly [number, number][]): number {
  const n = pts.length;
  const mx = pts.reduce((s, p) => s + p[0], 0) / n;
  const my = pts.reduce((s, p) => s + p[1], 0) / n;
  let sxy = 0, sxx = 0, syy = 0;
  for (const [a, b] of pts) {
    sxy += (a - mx) * (b - my);
    sxx += (a - mx) ** 2;
    syy += (b - my) ** 2;
  }
  return sxx && syy ? sxy / Math.sqrt(sxx * syy) : NaN;
}

/**
 * What the fit leans on: points at (0, 0) and a point without which Pearson's
 * r moves by more than 0.15 (named with r with and without it); `carried`
 * when one point alone carries the fit (see {@linkcode carries}).
 */
function leaning(
  values: readonly Record<string, unknown>[],
  x: string,
  y: string,
  name: string | undefined,
  fitOn: readonly string[] | undefined,
  color: string | undefined,
): { notes: string[]; carried: boolean } {
  const rows = values.filter((v) => !fitOn || !color || fitOn.includes(String(v[color])));
  const label = (v: Record<string, unknown>) => (name ? String(v[name]) : "a point");
  const out: string[] = [];
  const zero = rows.filter((v) => v[x] === 0 && v[y] === 0);
  if (zero.length) out.push(`at (0, 0): ${zero.map(label).join(", ")}`);
  // Under 4 points, leaving one out leaves a pair, which any line fits: whether one
  // point carries the fit cannot be told, so no line is drawn.
  if (rows.length < 4) {
    if (rows.length >= 2) out.push(`no fit line: ${rows.length} points are too few to tell`);
    return { notes: out, carried: rows.length >= 2 };
  }
  const pts = rows.map((v) => [v[x] as number, v[y] as number] as [number, number]);
  const r = pearsonOf(pts);
  if (!Number.isFinite(r)) return { notes: out, carried: false };
  let worst = -1;
  let worstR = r;
  let carrier = -1;
  let carrierR = r;
  pts.forEach((_, i) => {
    const without = pearsonOf(pts.filter((_, j) => j !== i));
    if (!Number.isFinite(without)) return;
    if (Math.abs(without - r) > Math.abs(worstR - r)) {
      worst = i;
      worstR = without;
    }
    if (carries(r, without) && (carrier < 0 || Math.abs(without - r) > Math.abs(carrierR - r))) {
      carrier = i;
      carrierR = without;
    }
  });
  if (carrier >= 0) [worst, worstR] = [carrier, carrierR];
  if (worst >= 0 && Math.abs(worstR - r) > 0.15) {
    // The point the fit leans on is named once, with what it leans on.
    if (zero.includes(rows[worst])) out.splice(0, 1);
    out.push(
      `${carrier >= 0 ? "no fit line: " : ""}Pearson r ${r.toFixed(3)} leans on ${
        label(rows[worst])
      }${zero.includes(rows[worst]) ? " at (0, 0)" : ""}: without it r = ${worstR.toFixed(3)}`,
    );
  } else if (carrier >= 0) {
    out.push(
      `no fit line: Pearson r ${r.toFixed(3)} changes sign without ${label(rows[carrier])} (r = ${
        carrierR.toFixed(3)
      })`,
    );
  }
  return { notes: out, carried: carrier >= 0 };
}

/**
 * How far |r| may move when one point is left out before that point alone
 * carries the fit and no line is drawn.
 */
const CARRIED_BY_ONE = 0.3;

/**
 * Whether leaving one point out (Pearson's r then `without`) shows that point
 * carries the fit: r changes sign, or |r| moves by more than
 * {@linkcode CARRIED_BY_ONE}.
 */
function carries(r: number, without: number): boolean {
  return Math.sign(without) * Math.sign(r) < 0 ||
    Math.abs(Math.abs(without) - Math.abs(r)) > CARRIED_BY_ONE;
}

function dodge(
  values: Record<string, unknown>[],
  x: string,
  y: string,
  name: string | undefined,
  facet: string | undefined,
): string[][] {
  // Nudged by 4% of the x span of the point's panel (about a marker's width).
  const spanOf = (v: Record<string, unknown>) => {
    const xs = values.filter((w) => w._side === v._side && (!facet || w[facet] === v[facet]))
      .map((w) => w[x] as number);
    return Math.max(...xs) - Math.min(...xs) || 0.1;
  };
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
    const span = spanOf(g[0]);
    g.forEach((v, i) => (v._x = (v[x] as number) + (i - (g.length - 1) / 2) * 0.04 * span));
    const where = facet ? `${g[0][facet]}: ` : "";
    if (name) ties.push(g.map((v, i) => `${i === 0 ? where : ""}${v[name]}`));
  }
  return ties;
}
