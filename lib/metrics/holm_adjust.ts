/**
 * Holm's step-down correction of p-values for multiple comparisons.
 *
 * @module
 */

/**
 * Holm (1979) adjusted p-values: with the m p-values sorted ascending, the
 * i-th (from 1) becomes max over j <= i of min(1, (m - j + 1) p_(j)). A
 * hypothesis is rejected at family-wise level alpha when its adjusted value is
 * <= alpha. NaN p-values are kept as NaN and do not count in m.
 *
 * @param p Raw p-values, in any order.
 * @returns Adjusted p-values in the input order.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holmAdjust } from "@lib/metrics/mod.ts";
 * assert.deepEqual(holmAdjust([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06]);
 * ```
 */
export function holmAdjust(p: readonly number[]): number[] {
  const order = p.map((v, i) => [v, i] as const).filter(([v]) => !Number.isNaN(v))
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const m = order.length;
  const out = p.map(() => NaN);
  let running = 0;
  order.forEach(([v, i], j) => {
    running = Math.max(running, Math.min(1, (m - j) * v));
    out[i] = running;
  });
  return out;
}
