/**
 * Randolph's free-marginal multirater kappa.
 *
 * @module
 */
import { agreementParts } from "./_rating_table.ts";

/**
 * Randolph's free-marginal kappa: (P̄ - 1/k) / (1 - 1/k), with P̄ as in Fleiss'
 * kappa and chance agreement 1/k for k categories (Randolph 2005). Suited when
 * raters are not constrained to fixed category proportions.
 *
 * @param table Items x categories counts, every row summing to the same number of raters.
 * @returns kappa in [-1/(k-1), 1].
 * @throws {RangeError} On an empty table, ragged rows, unequal rater counts or k < 2.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { randolphKappa } from "@lib/metrics/mod.ts";
 * // P̄ = 7/9, chance 1/2 for two categories: kappa = 5/9
 * assert.ok(Math.abs(randolphKappa([[0, 3], [3, 0], [1, 2]]) - 5 / 9) < 1e-12);
 * ```
 */
export function randolphKappa(table: readonly (readonly number[])[]): number {
  const { observed, categoryShares } = agreementParts(table, "Randolph's kappa");
  const k = categoryShares.length;
  if (k < 2) {
    throw new RangeError(`Cannot compute Randolph's kappa: need at least 2 categories, got ${k}`);
  }
  return (observed - 1 / k) / (1 - 1 / k);
}
