/**
 * Heatmap of a topic's rating matrix (passages x sub-questions, 0-5).
 *
 * @module
 */
import type { Rating } from "@lib/types/records.ts";
import { heatmapBody } from "./_heatmap.ts";
import { distinct, topLevel } from "./_style.ts";
import type { FigureOptions, VegaLiteSpec } from "./types.ts";

/** Options of {@linkcode ratingHeatmap}. */
export interface RatingHeatmapOptions extends FigureOptions {
  /** Topic to show. Default: the only topic in the ratings. */
  topicId?: string;
  /** Judge whose ratings to show. Default: the only judge in the ratings. */
  judge?: string;
  /** Print the rating in each cell. Default true. */
  showValues?: boolean;
  /** Cell size in pixels. Default 18. */
  cell?: number;
}

/** Six steps of ColorBrewer's sequential Blues, from near-white (0) to dark blue (5). */
const BLUES = ["#f7fbff", "#c6dbef", "#9ecae1", "#6baed6", "#3182bd", "#08519c"];

/** Drop a `{topic}:` or `{topic}#` prefix from an id, for short axis labels. */
function shortId(id: string, topicId: string): string {
  return id.startsWith(`${topicId}:`) || id.startsWith(`${topicId}#`)
    ? id.slice(topicId.length + 1)
    : id;
}

/**
 * The rating matrix of one topic: one row per judged item (passage or report),
 * one column per sub-question, coloured on a sequential 0-5 scale (ColorBrewer
 * Blues, near-white for 0; print-safe); unparseable ratings (-1) are grey. Rows and columns keep the
 * order of first appearance. Axis labels drop the topic prefix of the ids
 * (`t1:0#3` -> `0#3`, `t1#q2` -> `q2`); the data keeps the full ids.
 *
 * @param ratings Rating records; copied, not modified.
 * @param opts Title (required), subtitle/note, `topicId`/`judge` selection,
 *   `showValues` (default true), `cell` size (default 18).
 * @returns A Vega-Lite v6 spec with the data inline.
 * @throws {RangeError} When the ratings hold several topics or judges and none
 *   is chosen, nothing is selected, a cell is rated twice, or a rating is
 *   outside -1..5.
 * @example
 * ```ts
 * const ratings = [
 *   { topicId: "t1", itemId: "t1:0#0", questionId: "t1#q1", rating: 4, judge: "lexical" },
 *   { topicId: "t1", itemId: "t1:0#0", questionId: "t1#q2", rating: 0, judge: "lexical" },
 * ];
 * const spec = ratingHeatmap(ratings, { title: "Ratings of t1", note: "offline backends: lexical judge" });
 * ```
 */
export function ratingHeatmap(
  ratings: readonly Rating[],
  opts: RatingHeatmapOptions,
): VegaLiteSpec {
  const only = (what: "topicId" | "judge", chosen: string | undefined) => {
    if (chosen !== undefined) return chosen;
    const all = [...new Set(ratings.map((r) => r[what]))];
    if (all.length !== 1) {
      throw new RangeError(
        `Cannot build rating heatmap: the ratings hold ${all.length} values of ${what} (${
          all.slice(0, 5).join(", ")
        }); choose one with the ${what} option`,
      );
    }
    return all[0];
  };
  const topicId = only("topicId", opts.topicId);
  const judge = only("judge", opts.judge);
  const chosen = ratings.filter((r) => r.topicId === topicId && r.judge === judge);
  if (chosen.length === 0) {
    throw new RangeError(
      `Cannot build rating heatmap: no ratings of topic "${topicId}" by judge "${judge}"; check the topicId and judge options`,
    );
  }
  const seen = new Set<string>();
  const values = chosen.map((r) => {
    const key = `${r.itemId}\u0000${r.questionId}`;
    if (seen.has(key)) {
      throw new RangeError(
        `Cannot build rating heatmap: item "${r.itemId}" question "${r.questionId}" is rated twice by "${judge}"; keep one rating per cell`,
      );
    }
    seen.add(key);
    if (!Number.isInteger(r.rating) || r.rating < -1 || r.rating > 5) {
      throw new RangeError(
        `Cannot build rating heatmap: item "${r.itemId}" question "${r.questionId}" has rating ${r.rating}; expected an integer from -1 to 5`,
      );
    }
    return {
      topicId: r.topicId,
      itemId: r.itemId,
      questionId: r.questionId,
      rating: r.rating,
      judge: r.judge,
      item: shortId(r.itemId, topicId),
      question: shortId(r.questionId, topicId),
    };
  });
  const body = heatmapBody({
    x: { field: "question", title: "sub-question", sort: distinct(values, "question") },
    y: { field: "item", title: "passage", sort: distinct(values, "item") },
    color: {
      condition: { test: "datum.rating < 0", value: "#bdbdbd" },
      field: "rating",
      type: "ordinal",
      scale: { domain: [0, 1, 2, 3, 4, 5], range: BLUES },
      legend: { title: "rating", symbolStrokeColor: "#999999", symbolStrokeWidth: 0.5 },
    },
    text: (opts.showValues ?? true) ? { field: "rating", type: "quantitative" } : undefined,
    lightText: "datum.rating >= 4",
    cell: opts.cell ?? 18,
  });
  return topLevel(opts, values, body);
}
