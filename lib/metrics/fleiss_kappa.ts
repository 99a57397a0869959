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
 * import { fleissKappa } from "@lib/metrics/mod.ts";
 * fleissKappa([[0, 3], [3, 0], [1, 2]]); // 0.5555...
 * ```
 */
export function fleissKappa(table: readonly (readonly number[])[]): number {
  const { observed, categoryShares } = agreementParts(table, "Fleiss' kappa");
  const expected = categoryShares.reduce((s, p) => s + p * p, 0);
  return expected === 1 ? NaN : (observed - expected) / (1 - expected);
}
