/**
 * The counts of one origin's nuggets per topic (passages and windows shown,
 * nuggets created, their importance, kept) as rows of the measure table, so
 * the nugget topic table shows stored rows.
 *
 * @module
 */
import type { NuggetTopicCounts } from "@lib/store/mod.ts";
import { countRows } from "@lib/metrics/mod.ts";
import type { MeasureRow } from "@lib/types/mod.ts";

/**
 * The nugget count measures, per topic:
 * - `nugget_passages`, `nugget_windows`: passages and windows of passages shown
 *   to the nugget creator (0 for imported nuggets);
 * - `nugget_windows_failed`: windows whose output could not be read;
 * - `nugget_created`: nuggets created (or imported);
 * - `nugget_vital`, `nugget_okay`: nuggets labelled vital, okay;
 * - `nugget_importance_failed`: nuggets whose importance label failed;
 * - `nugget_kept`: nuggets kept after importance (the ones answers are judged on).
 */
export const NUGGET_COUNT_MEASURES = [
  "nugget_passages",
  "nugget_windows",
  "nugget_windows_failed",
  "nugget_created",
  "nugget_vital",
  "nugget_okay",
  "nugget_importance_failed",
  "nugget_kept",
] as const;

/** One count measure of {@linkcode NUGGET_COUNT_MEASURES}. */
export type NuggetCountMeasure = (typeof NUGGET_COUNT_MEASURES)[number];

/**
 * Counts an origin's stored nuggets into `measures` rows: method `nuggets`,
 * run '' (the nuggets are every run's), judge '', source the origin, one row
 * per topic and count measure (topic set `topic(id=...)`) and one `all` row per
 * measure holding the total over the topics with a row (`topics` = their
 * number, topic set `judged(n=...)`). A topic whose creation failed for a
 * window has an incomplete nugget list: it gets only its passage and window
 * counts, no nugget count, and no part in their totals.
 *
 * @param counts The origin's counts per topic (`readNuggetTopicCounts`).
 * @param origin The nugget origin (`created:<backend>`, `file:<name>`).
 * @returns The rows.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nuggetCountRows } from "@lib/nuggets/nugget_count_rows.ts";
 * const rows = nuggetCountRows([
 *   { topicId: "t1", passages: 12, windows: 2, failedWindows: 0, nuggets: 5, vital: 2, okay: 3, failed: 0, kept: 4 },
 *   { topicId: "t2", passages: 8, windows: 1, failedWindows: 1, nuggets: 0, vital: 0, okay: 0, failed: 0, kept: 0 },
 * ], "created:offline");
 * const created = rows.find((r) => r.measure === "nugget_created" && r.topicId === "all");
 * assert.deepEqual([created?.value, created?.topics, created?.topicSet], [5, 1, "judged(n=1)"]);
 * const passages = rows.find((r) => r.measure === "nugget_passages" && r.topicId === "all");
 * assert.deepEqual([passages?.value, passages?.topics], [20, 2]);
 * assert.equal(rows.some((r) => r.topicId === "t2" && r.measure === "nugget_created"), false);
 * ```
 */
export function nuggetCountRows(
  counts: readonly NuggetTopicCounts[],
  origin: string,
): MeasureRow[] {
  const perTopic = [...counts].sort((a, b) => a.topicId < b.topicId ? -1 : 1).map((c) => {
    const shown: [NuggetCountMeasure, number][] = [
      ["nugget_passages", c.passages],
      ["nugget_windows", c.windows],
      ["nugget_windows_failed", c.failedWindows],
    ];
    const made: [NuggetCountMeasure, number][] = c.failedWindows ? [] : [
      ["nugget_created", c.nuggets],
      ["nugget_vital", c.vital],
      ["nugget_okay", c.okay],
      ["nugget_importance_failed", c.failed],
      ["nugget_kept", c.kept],
    ];
    return { topicId: c.topicId, counts: [...shown, ...made] };
  });
  return countRows(
    { method: "nuggets", run: "", judge: "", source: origin },
    perTopic,
    NUGGET_COUNT_MEASURES,
  );
}
