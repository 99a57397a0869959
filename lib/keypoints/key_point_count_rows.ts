/**
 * The counts of a key point extraction (documents, key points, span checks,
 * flagged and merged points, unusable answers) as rows of the measure table,
 * so the extraction table shows stored rows.
 *
 * @module
 */
import { countRows } from "@lib/metrics/mod.ts";
import type { MeasureRow } from "@lib/types/mod.ts";

/**
 * The extraction's count measures, per topic:
 * - `kp_documents`: oracle documents with at least one original key point;
 * - `kp_original`: original key points (extracted from one document each);
 * - `kp_spans_exact`, `kp_spans_normalized`, `kp_spans_not_found`: their spans
 *   found verbatim, found once white space and quotes are normalised, not found;
 * - `kp_flagged`: original key points with a span not found, or with no span;
 * - `kp_merged`: merged key points (the ones answers are judged against);
 * - `kp_unusable`: extract and merge answers without a usable result.
 */
export const KEYPOINT_COUNT_MEASURES = [
  "kp_documents",
  "kp_original",
  "kp_spans_exact",
  "kp_spans_normalized",
  "kp_spans_not_found",
  "kp_flagged",
  "kp_merged",
  "kp_unusable",
] as const;

/** One count measure of {@linkcode KEYPOINT_COUNT_MEASURES}. */
export type KeyPointCountMeasure = (typeof KEYPOINT_COUNT_MEASURES)[number];

/** A stored key point, as much of it as is counted. */
export interface CountedKeyPoint {
  topicId: string;
  /** `original` or `merged`. */
  level: string;
  docId: string | null;
  /** Per span: `exact`, `normalized` or `missing`; null when not checked. */
  spanStatus: readonly string[] | null;
  spans: readonly string[];
}

/**
 * Counts a source's stored key points into `measures` rows: method
 * `keypoints`, run '' (the key points are every run's), judge '', source the
 * key point source, one row per topic and count measure (topic set
 * `topic(id=...)`) and one `all` row per measure holding the total over the
 * topics with a row (`topics` = their number, topic set `judged(n=...)`).
 * The topics are those with a key point or an unusable answer. A topic whose
 * extraction failed for a passage (an `extract` problem) has incomplete key
 * points: it gets only `kp_unusable`, no other count, and no part in their totals.
 *
 * @param points The source's stored key points (both levels).
 * @param problems Unusable answers per topic and step (`extract`, `merge`).
 * @param source The key point source (`extracted:<backend>`, `file:<name>`).
 * @returns The rows.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyPointCountRows } from "@lib/keypoints/key_point_count_rows.ts";
 * const rows = keyPointCountRows(
 *   [{ topicId: "t1", level: "original", docId: "d1", spanStatus: ["exact", "missing"], spans: ["a", "b"] }],
 *   [{ topicId: "t2", step: "extract", n: 1 }],
 *   "extracted:offline-salient",
 * );
 * const flagged = rows.find((r) => r.measure === "kp_flagged" && r.topicId === "all");
 * assert.deepEqual([flagged?.value, flagged?.topics, flagged?.topicSet], [1, 1, "judged(n=1)"]);
 * assert.equal(rows.some((r) => r.topicId === "t2" && r.measure === "kp_original"), false);
 * ```
 */
export function keyPointCountRows(
  points: readonly CountedKeyPoint[],
  problems: readonly { topicId: string; step: string; n: number }[],
  source: string,
): MeasureRow[] {
  const topics = [...new Set([...points.map((p) => p.topicId), ...problems.map((p) => p.topicId)])]
    .sort();
  const perTopic = topics.map((t) => {
    const unusable = problems.filter((p) => p.topicId === t).reduce((s, p) => s + p.n, 0);
    const failed = problems.some((p) => p.topicId === t && p.step === "extract" && p.n > 0);
    const o = points.filter((p) => p.topicId === t && p.level === "original");
    const status = o.flatMap((p) => p.spanStatus ?? []);
    const counts: [KeyPointCountMeasure, number][] = failed ? [["kp_unusable", unusable]] : [
      ["kp_documents", new Set(o.map((p) => p.docId)).size],
      ["kp_original", o.length],
      ["kp_spans_exact", status.filter((s) => s === "exact").length],
      ["kp_spans_normalized", status.filter((s) => s === "normalized").length],
      ["kp_spans_not_found", status.filter((s) => s === "missing").length],
      [
        "kp_flagged",
        o.filter((p) => (p.spanStatus ?? []).includes("missing") || !p.spans.length).length,
      ],
      ["kp_merged", points.filter((p) => p.topicId === t && p.level === "merged").length],
      ["kp_unusable", unusable],
    ];
    return { topicId: t, counts };
  });
  return countRows(
    { method: "keypoints", run: "", judge: "", source },
    perTopic,
    KEYPOINT_COUNT_MEASURES,
  );
}
