/**
 * Cohen's kappa for two raters.
 *
 * @module
 */
import { checkPaired } from "./_pairs.ts";

/**
 * Cohen's kappa: (p_o - p_e) / (1 - p_e), p_o the observed agreement and p_e
 * the agreement expected from each rater's own label frequencies.
 *
 * @param a Labels of the first rater (any comparable values).
 * @param b Labels of the second rater, same items in the same order.
 * @returns kappa (1 = perfect; 0 = chance); NaN when p_e = 1 (one shared label).
 * @throws {RangeError} When the lengths differ or no item is given.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cohenKappa } from "@lib/metrics/mod.ts";
 * // observed 2/3, chance 2/9 + 2/9 = 4/9: kappa (2/3 - 4/9) / (1 - 4/9) = 0.4
 * assert.ok(Math.abs(cohenKappa(["y", "n", "y"], ["y", "n", "n"]) - 0.4) < 1e-12);
 * ```
 */
export function cohenKappa<T>(a: readonly T[], b: readonly T[]): number {
  checkPaired(a as unknown[] as number[], b as unknown[] as number[], "Cohen's kappa", 1);
  const n = a.length;
  const countA = new Map<T, number>();
  const countB = new Map<T, number>();
  let agree = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) agree++;
    countA.set(a[i], (countA.get(a[i]) ?? 0) + 1);
    countB.set(b[i], (countB.get(b[i]) ?? 0) + 1);
  }
  let expected = 0;
  for (const [label, ca] of countA) expected += (ca / n) * ((countB.get(label) ?? 0) / n);
  return expected === 1 ? NaN : (agree / n - expected) / (1 - expected);
}
