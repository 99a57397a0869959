/**
 * How a table reads a statistic: the stored row of its key, or why the cell
 * is blank. Nothing is computed here.
 *
 * @module
 */
import { formatStatisticKey, type StatisticKey, type StoredStatistic } from "@lib/store/mod.ts";
import type { CruxData } from "./types.ts";

/** A statistic as a table shows it: the stored value, or null and the reason. */
export interface ShownStatistic {
  /** The formatted key of the row looked up. */
  id: string;
  value: number | null;
  /** Values (or pairs) it is over; 0 when nothing is stored. */
  n: number;
  /** Why the value is absent; '' when present. */
  reason: string;
}

const indexCache = new WeakMap<readonly StoredStatistic[], Map<string, StoredStatistic>>();

/** The reason of a statistic the workspace does not hold. */
export const NOT_STORED = "not stored: the statistics stage has not computed it";

/**
 * The stored statistic of `key` in `data.statistics`, or null with the reason:
 * the stored one (an input had no value, or the statistic is undefined on them),
 * or that the statistics stage stored none.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param key The statistic's key.
 * @returns Its value, count and reason.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storedStatistic } from "@lib/analysis/mod.ts";
 * const x = [{ run: "a", source: "", judge: "", measure: "P@10" }];
 * const key = { statistic: "mean", x, topicSet: "all" };
 * const data = { statistics: [{ key, value: 0.5, n: 1, reason: "" }] };
 * assert.equal(storedStatistic(data, key).value, 0.5);
 * assert.equal(storedStatistic({}, key).value, null);
 * ```
 */
export function storedStatistic(
  data: Pick<CruxData, "statistics">,
  key: StatisticKey,
): ShownStatistic {
  const id = formatStatisticKey(key);
  const all = data.statistics ?? [];
  let index = indexCache.get(all);
  if (!index) {
    index = new Map(all.map((s) => [formatStatisticKey(s.key), s]));
    indexCache.set(all, index);
  }
  const s = index.get(id);
  if (!s) return { id, value: null, n: 0, reason: NOT_STORED };
  return { id, value: s.value, n: s.n, reason: s.value === null ? s.reason : "" };
}
