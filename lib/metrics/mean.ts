/**
 * The arithmetic mean, the one used by every statistic and table.
 *
 * @module
 */

/**
 * Arithmetic mean, summed left to right (NaN for an empty list).
 *
 * @param values The values.
 * @returns Their mean.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mean } from "@lib/metrics/mod.ts";
 * assert.equal(mean([1, 2, 4]), 2.3333333333333335);
 * ```
 */
export function mean(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return values.length ? s / values.length : NaN;
}
