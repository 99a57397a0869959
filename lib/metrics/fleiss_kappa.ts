/**
 * Fleiss' kappa for a fixed number of raters per item.
 *
 * @module
 */
import { agreementParts } from "./_rating_table.ts";

/**
 * Fleiss' kappa: (P̄ - P̄e) / (1 - P̄e), P̄ the mean pairwise agreement per item
 * and P̄e the sum of squared category shares (Fleiss 1971).
 *
 * @param table Items x categories: how many raters put item i in category j;
 *   every row sums to the same number of raters (>= 2).
 * @returns kappa, NaN when P̄e = 1.
 * @throws {RangeError} On an empty table, ragged rows or unequal rater counts.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fleissKappa } from "@lib/metrics/mod.ts";
 * // P̄ = (1 + 1 + 1/3) / 3 = 7/9, P̄e = (4/9)² + (5/9)² = 41/81: kappa = 22/40 = 0.55
 * assert.ok(Math.abs(fleissKappa([[0, 3], [3, 0], [1, 2]]) - 0.55) < 1e-12);
 * ```
 */
export function fleissKappa(table: readonly (readonly number[])[]): number {
  const { observed, categoryShares } = agreementParts(table, "Fleiss' kappa");
  const expected = categoryShares.reduce((s, p) => s + p * p, 0);
  return expected === 1 ? NaN : (observed - expected) / (1 - expected);
}
