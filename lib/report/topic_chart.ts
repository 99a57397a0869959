/**
 * Per-topic chart: one value per condition and topic, optionally with human labels.
 *
 * @module
 */
import { naturalCompare } from "./natural_compare.ts";
import { distinct, pick, topLevel } from "./_style.ts";
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
   * Human labels per topic drawn as black diamonds over the conditions
   * (records with the `topic` and `y` fields), e.g. human-judged coverage.
   */
  human?: readonly object[];
  /** Legend entry of the human overlay. Default `human`. */
  humanLabel?: string;
}

/**
 * Points (and by default lines) per condition over topics, e.g. `Cov` of each
 * generation condition per topic; topics and conditions in order of first
 * appearance. With `human`, the human labels are overlaid as black diamonds
 * with their own legend entry.
 *
 * @param data Records with the `topic`, `color` and `y` fields; copied, not modified.
 * @param opts Title (required), subtitle/note, fields, human overlay, size
 *   (default width: 28 px per topic, at least 240; height 220).
 * @returns A Vega-Lite v6 spec with the data inline (the overlay as a layer's own data).
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
  const values = pick("topic chart", data, { numeric: [y], text: [topic, color] });
  const human = opts.human
    ? pick("topic chart overlay", opts.human, { numeric: [y], text: [topic] })
    : [];
  // Natural order: test-2 before test-10.
  const topics = (distinct([...values, ...human], topic) as string[]).map(String).sort(
    naturalCompare,
  );
  const yEnc = {
    field: y,
    type: "quantitative",
    title: opts.yTitle ?? y,
    scale: { domain: opts.yDomain ?? [0, 1] },
  };
  const colorEnc = {
    field: color,
    type: "nominal",
    sort: distinct(values, color),
    title: opts.colorTitle ?? color,
  };
  const layers: Record<string, unknown>[] = [];
  if (opts.lines ?? true) {
    layers.push({
      mark: { type: "line", strokeWidth: 1.5, opacity: 0.7 },
      encoding: { color: colorEnc },
    });
  }
  layers.push({
    mark: { type: "point", filled: true, size: 45, opacity: 1 },
    encoding: {
      color: colorEnc,
      tooltip: [
        { field: topic, type: "nominal" },
        { field: color, type: "nominal" },
        { field: y, type: "quantitative", format: ".3f" },
      ],
    },
  });
  if (opts.human) {
    layers.push({
      data: { values: human },
      mark: { type: "point", filled: true, size: 90, color: "black", opacity: 1 },
      encoding: {
        shape: {
          datum: opts.humanLabel ?? "human",
          type: "nominal",
          title: null,
          scale: { range: ["diamond"] },
        },
      },
    });
  }
  return topLevel(opts, values, {
    width: opts.width ?? Math.max(240, 28 * topics.length),
    height: opts.height ?? 220,
    encoding: {
      x: { field: topic, type: "nominal", sort: topics, title: "topic", axis: { labelAngle: -45 } },
      y: yEnc,
    },
    layer: layers,
    resolve: { scale: { shape: "independent" } },
  });
}
