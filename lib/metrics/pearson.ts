/**
 * Pearson's product-moment correlation.
 *
 * @module
 */
import { checkPaired, mean } from "./_pairs.ts";

/**
 * Pearson's r of two paired samples. NaN when either sample is constant.
 *
 * @param x First sample.
 * @param y Second sample, paired with `x`.
 * @returns r in [-1, 1], or NaN.
 * @throws {RangeError} When the lengths differ or fewer than 2 pairs are given.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pearson } from "@lib/metrics/mod.ts";
 * assert.equal(pearson([1, 2, 3, 4, 5], [10, 9, 2.5, 6, 4]), -0.7426106572325057);
 * ```
 */
export function pearson(x: readonly number[], y: readonly number[]): number {
  checkPaired(x, y, "Pearson's r");
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return NaN;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}
