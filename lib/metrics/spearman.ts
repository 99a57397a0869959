/**
 * Spearman's rank correlation.
 *
 * @module
 */
import { checkPaired } from "./_pairs.ts";
import { pearson } from "./pearson.ts";

/**
 * Ranks values from 1 (smallest first); tied values share the mean of their ranks.
 *
 * @param values The sample.
 * @returns One rank per value, in input order.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { averageRanks } from "@lib/metrics/mod.ts";
 * assert.deepEqual(averageRanks([10, 20, 10, 30]), [1.5, 3, 1.5, 4]);
 * ```
 */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k][1]] = rank;
    i = j + 1;
  }
  return ranks;
}

/**
 * Spearman's rho: Pearson's r of the average ranks (ties get the mean of
 * their ranks, as scipy's `spearmanr`).
 *
 * @param x First sample.
 * @param y Second sample, paired with `x`.
 * @returns rho in [-1, 1], or NaN when a sample is constant.
 * @throws {RangeError} When the lengths differ or fewer than 2 pairs are given.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spearman } from "@lib/metrics/mod.ts";
 * assert.equal(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]), 0.8207826816681233);
 * ```
 */
export function spearman(x: readonly number[], y: readonly number[]): number {
  checkPaired(x, y, "Spearman's rho");
  return pearson(averageRanks(x), averageRanks(y));
}
