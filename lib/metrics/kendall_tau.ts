/**
 * Kendall's rank correlation, tau-b variant.
 *
 * @module
 */
import { checkPaired } from "./_pairs.ts";

/**
 * Kendall's tau-b, which corrects for ties:
 * (C - D) / sqrt((C + D + Tx) (C + D + Ty)), with C/D the concordant and
 * discordant pairs and Tx/Ty the pairs tied only in x / only in y (scipy's
 * `kendalltau` default). O(n²), meant for system rankings.
 *
 * @param x First sample.
 * @param y Second sample, paired with `x`.
 * @returns tau-b in [-1, 1], or NaN when a sample is constant.
 * @throws {RangeError} When the lengths differ or fewer than 2 pairs are given.
 * @example
 * ```ts
 * import { kendallTau } from "@lib/metrics/mod.ts";
 * kendallTau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]); // -0.47140452079103173
 * ```
 */
export function kendallTau(x: readonly number[], y: readonly number[]): number {
  checkPaired(x, y, "Kendall's tau");
  let concordant = 0;
  let discordant = 0;
  let onlyX = 0;
  let onlyY = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i] - x[j]);
      const dy = Math.sign(y[i] - y[j]);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) onlyX++;
      else if (dy === 0) onlyY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt((concordant + discordant + onlyX) * (concordant + discordant + onlyY));
  return denom === 0 ? NaN : (concordant - discordant) / denom;
}
