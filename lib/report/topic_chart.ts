/**
 * Per-topic chart: one value per condition and topic, optionally with human labels.
 *
 * @module
 */
import { naturalCompare } from "./natural_compare.ts";
import { coinciding } from "./_overlap.ts";
import { seriesPalette } from "./series_palette.ts";
import {
  DOUBLE,
  focusOpacity,
  focusParam,
  MAX_LINES,
  names,
  pick,
  seriesEncodings,
  smallMultiples,
  topLevel,
} from "./_style.ts";
import type { FigureOptions, VegaLiteSpec } from "./types.ts";

/** Options of {@linkcode topicChart}. */
export interface TopicChartOptions extends FigureOptions {
  /** Field naming the topic (x axis). Default `topicId`. */
  topic?: string;
  /** Field naming the condition or run (colour). Default `run`. */
  color?: string;
  /** Field holding the value (y axis). Default `value`. */
  y?: string;
  yTitle?: string;
  colorTitle?: string;
  /** Fixed y domain. Default `[0, 1]` (coverage). */
  yDomain?: [number, number];
  /** Connect each condition's points across topics. Default true. */
  lines?: boolean;
  /**
   * Human labels per topic drawn as black diamonds (records with the `topic`
   * and `y` fields), e.g. human-judged coverage of one condition.
   */
  human?: readonly object[];
  /** Legend entry of the human overlay. Default `human`. */
  humanLabel?: string;
  /** Series the human labels belong to (its panel in small multiples). Default: own panel. */
  humanSeries?: string;
  /** Series above which the chart becomes small multiples (one panel per series). Default 8. */
  maxLines?: number;
}

/**
 * Points (and by default lines) per condition over topics, e.g. `Cov` of each
 * generation condition per topic, topics in natural order (test-2 before
 * test-10). Up to `maxLines` series share one panel, dodged within each topic
 * so ties stay visible; more (or more than 160 points of three or more
 * series) become small multiples, one panel per series, legend below.
 * Series equal on every topic are named in the subtitle. With `human`, the
 * human labels are drawn as black diamonds with their own legend entry.
 *
 * @param data Records with the `topic`, `color` and `y` fields; copied, not modified.
 * @param opts Title (required), subtitle/note, fields, human overlay, palette, size
 *   (width follows the topics, at most 7 in; height 150).
 * @returns A Vega-Lite v6 spec with the data inline.
 * @throws {TypeError} When the title is empty or a record lacks a field.
 * @example
 * ```ts
 * const spec = topicChart(
 *   [{ topicId: "t1", run: "rag", value: 0.5 }, { topicId: "t2", run: "rag", value: 0.8 }],
 *   { title: "Coverage per topic", human: [{ topicId: "t1", value: 0.6 }] },
 * );
 * ```
 */
export function topicChart(
  data: readonly object[],
  opts: TopicChartOptions,
): VegaLiteSpec {
  const topic = opts.topic ?? "topicId";
  const color = opts.color ?? "run";
  const y = opts.y ?? "value";
  const picked = pick("topic chart", data, { numeric: [y], text: [topic, color] })
    .map((r): Record<string, unknown> => ({ ...r, _panel: String(r[color]) }));
  // A series that is zero on every topic is not drawn (as in the bar charts)
  // and the subtitle says so.
  const zero = names(picked, color).filter((s) =>
    picked.every((r) => String(r[color]) !== s || r[y] === 0)
  );
  const values = zero.length > 0 && zero.length < names(picked, color).length
    ? picked.filter((r) => !zero.includes(String(r[color])))
    : picked;
  const hidden = values === picked ? [] : zero;
  const humanLabel = opts.humanLabel ?? "human";
  const human = opts.human
    ? pick("topic chart overlay", opts.human, { numeric: [y], text: [topic] })
      .map((r) => ({ ...r, [color]: humanLabel, _panel: opts.humanSeries ?? humanLabel }))
    : [];
  const topics = names([...values, ...human], topic).sort(naturalCompare);
  const series = names(values, color);
  const drawn = human.length ? [...series, humanLabel] : series;
  // Small multiples past maxLines series, or when the lines would cross more than
  // 160 points (e.g. 5 series over 40 topics), where one panel is unreadable.
  const facets = series.length > (opts.maxLines ?? MAX_LINES) ||
    (series.length > 2 && series.length * topics.length > 160);
  const enc = seriesEncodings(
    color,
    drawn,
    opts.colorTitle ?? color,
    human.length
      ? seriesPalette([{ name: humanLabel, kind: "human" }], seriesPalette(series, opts.palette))
      : opts.palette,
    facets, // small multiples: the legend goes below the panels
  );
  const same = coinciding(values, color, topic, y);
  const subtitle = [
    opts.subtitle,
    same.length ? `equal on every topic: ${same.map((g) => g.join(" = ")).join("; ")}` : "",
    hidden.length ? `not drawn (zero everywhere): ${hidden.join(", ")}` : "",
  ].filter(Boolean).join("; ");
  const yEnc = {
    field: y,
    type: "quantitative",
    title: opts.yTitle ?? y,
    scale: { domain: opts.yDomain ?? [0, 1] },
  };
  const columns = 3;
  // Facets share the y axis of each row: 3 panels and one axis fit 7 in.
  const plotMax = facets ? Math.floor((DOUBLE - 50) / columns) - 12 : DOUBLE - 170;
  const step = topics.length <= 20 ? 16 : 9;
  const width = opts.width ?? Math.min(plotMax, Math.max(facets ? 100 : 160, topics.length * step));
  const offset = facets ? {} : { xOffset: { field: color, type: "nominal", sort: drawn } };
  // A prefix every topic id shares (e.g. `multi_news-test-`) goes to the axis
  // title, so the labels keep the part that tells topics apart.
  const prefix = sharedPrefix(topics);
  const xEnc = {
    field: topic,
    type: "nominal",
    sort: topics,
    title: prefix ? `topic (${prefix}…)` : "topic",
    scale: { type: "band", paddingInner: 0.15 },
    axis: {
      labelAngle: -90,
      labelLimit: 70,
      labelFontSize: topics.length > 30 ? 6 : 8,
      ...(prefix ? { labelExpr: `slice(datum.label, ${prefix.length})` } : {}),
    },
  };
  const tooltip = [
    { field: topic, type: "nominal" },
    { field: color, type: "nominal" },
    { field: y, type: "quantitative", format: ".3f" },
  ];
  const layers: Record<string, unknown>[] = [];
  const notHuman = { filter: { not: { field: color, equal: humanLabel } } };
  if (opts.lines ?? true) {
    layers.push({
      transform: human.length ? [notHuman] : [],
      mark: { type: "line", strokeWidth: 1, opacity: 0.7 },
      encoding: { ...offset, color: enc.color, opacity: focusOpacity(0.7, 0.1) },
    });
  }
  layers.push({
    params: [focusParam(color)],
    mark: { type: "point", filled: true, size: 22, opacity: 1, strokeWidth: 1 },
    encoding: {
      ...offset,
      color: enc.color,
      shape: enc.shape,
      opacity: focusOpacity(),
      tooltip,
    },
  });
  const inner = {
    width,
    height: opts.height ?? (facets ? 90 : 150),
    encoding: { x: xEnc, y: yEnc },
    layer: layers,
  };
  const all = [...values, ...human];
  if (!facets) {
    return topLevel({ ...opts, subtitle }, all, inner, width + 170);
  }
  const ordered = enc.palette.order.filter((s) => series.includes(s));
  const panels = [...ordered, ...(human.length && !opts.humanSeries ? [humanLabel] : [])];
  return topLevel({ ...opts, subtitle }, all, smallMultiples(panels, inner, columns), DOUBLE);
}

/** The longest prefix of every id ending at a separator (`-`, `_`, `:`, `/`), when 6+ characters. */
function sharedPrefix(ids: readonly string[]): string {
  if (ids.length < 2) return "";
  let p = ids[0];
  for (const id of ids) while (!id.startsWith(p)) p = p.slice(0, -1);
  const cut = Math.max(...["-", "_", ":", "/"].map((c) => p.lastIndexOf(c)));
  p = cut >= 0 ? p.slice(0, cut + 1) : "";
  return p.length >= 6 && ids.every((id) => id.length > p.length) ? p : "";
}
