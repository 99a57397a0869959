/**
 * Kendall's rank correlation, tau-b variant.
 *
 * @module
 */
import { checkPaired } from "./_pairs.ts";
import { kendallMerge, kendallPairs } from "./_kendall.ts";

/** Up to this many pairs, counting every pair is faster than the O(n log n) method. */
const PAIRWISE_MAX = 64;

/**
 * Kendall's tau-b, which corrects for ties:
 * (C - D) / sqrt((C + D + Tx) (C + D + Ty)), with C/D the concordant and
 * discordant pairs and Tx/Ty the pairs tied only in x / only in y (Kendall,
 * 1945; scipy's `kendalltau` default). Up to 64 pairs every pair is compared;
 * larger samples use Knight's O(n log n) merge-sort count (Knight, 1966), which
 * gives the same value.
 *
 * @param x First sample.
 * @param y Second sample, paired with `x`.
 * @returns tau-b in [-1, 1], or NaN when a sample is constant.
 * @throws {RangeError} When the lengths differ or fewer than 2 pairs are given.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kendallTau } from "@lib/metrics/mod.ts";
 * assert.equal(kendallTau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]), -0.47140452079103173);
 * ```
 */
export function kendallTau(x: readonly number[], y: readonly number[]): number {
  checkPaired(x, y, "Kendall's tau");
  return x.length > PAIRWISE_MAX ? kendallMerge(x, y) : kendallPairs(x, y);
}
