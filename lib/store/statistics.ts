/**
 * The statistics table's one writer and one reader: statistics computed by
 * the statistics stage from stored measure values (see `statistic_key.ts`).
 *
 * @module
 */
import type { Workspace } from "./workspace.ts";
import type { WorkspaceLike } from "./workspace_reads.ts";
import { formatStatisticKey, parseStatisticKey, type StatisticKey } from "./statistic_key.ts";

/** A stored statistic: its value, or null with the reason it is absent. */
export interface StoredStatistic {
  key: StatisticKey;
  /** The value; null when it is absent (an input missing, or undefined on these inputs). */
  value: number | null;
  /** Values (or pairs) it is over. */
  n: number;
  /** Why the value is absent; '' when it is present. */
  reason: string;
}

/**
 * Replaces every stored statistic with `rows` in one transaction (the
 * statistics stage computes them all from the measures at once, so none of an
 * earlier run outlives it).
 *
 * @param ws The workspace.
 * @param rows The statistics.
 * @returns The number of rows written.
 * @throws {RangeError} When two rows have the same key, naming it.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openWorkspace, readStatistics, writeStatistics } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * const x = [{ run: "a", source: "", judge: "", measure: "P@10" }];
 * await writeStatistics(ws, [{ key: { statistic: "mean", x, topicSet: "all" }, value: 0.5, n: 1, reason: "" }]);
 * assert.equal((await readStatistics(ws))[0].value, 0.5);
 * ws.close();
 * ```
 */
export async function writeStatistics(
  ws: Workspace,
  rows: readonly StoredStatistic[],
): Promise<number> {
  const seen = new Set<string>();
  const records = rows.map((r) => {
    const key = formatStatisticKey(r.key);
    if (seen.has(key)) throw new RangeError(`Cannot store statistic ${key} twice`);
    seen.add(key);
    return {
      key,
      statistic: r.key.statistic,
      inputs: JSON.stringify({ x: r.key.x, ...(r.key.y ? { y: r.key.y } : {}) }),
      topicSet: r.key.topicSet,
      params: JSON.stringify(r.key.params ?? {}),
      value: r.value === null || Number.isNaN(r.value) ? null : r.value,
      n: r.n,
      reason: r.reason,
    };
  });
  await ws.transaction(async () => {
    await ws.exec("DELETE FROM statistics");
    if (records.length) await ws.insert("statistics", records);
  });
  return records.length;
}

/**
 * Every stored statistic, in key order.
 *
 * @param ws The workspace.
 * @returns The statistics with their typed keys.
 * @example
 * ```ts
 * import { openWorkspace, readStatistics } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * console.log(await readStatistics(ws)); // [] until the statistics stage runs
 * ws.close();
 * ```
 */
export async function readStatistics(ws: WorkspaceLike): Promise<StoredStatistic[]> {
  const rows = await ws.query<{ key: string; value: number | null; n: number; reason: string }>(
    "SELECT key, value, n, reason FROM statistics ORDER BY key",
  );
  return rows.map((r) => ({
    key: parseStatisticKey(r.key),
    value: r.value === null ? null : Number(r.value),
    n: Number(r.n),
    reason: r.reason ?? "",
  }));
}
