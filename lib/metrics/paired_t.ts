/**
 * Paired Student's t-test between two runs' per-topic values.
 *
 * @module
 */
import { checkPaired, mean } from "./_pairs.ts";
import { studentTwoSidedP } from "./_student_t.ts";

/** Result of {@linkcode pairedTTest}. */
export interface TTestResult {
  /** Mean of a - b. */
  meanDifference: number;
  t: number;
  df: number;
  /** Two-sided p-value from the Student t distribution. */
  p: number;
}

/**
 * Paired two-sided t-test on per-topic values (same topics, same order). The
 * p-value comes from the Student t CDF through the regularised incomplete
 * beta function. When every difference is equal, t is ±Infinity (p = 0), or
 * NaN with p = 1 when they are all 0.
 *
 * @param a Per-topic values of run A.
 * @param b Per-topic values of run B, paired with `a`.
 * @returns Mean difference, t, degrees of freedom (n - 1) and p.
 * @throws {RangeError} When the lengths differ or fewer than 2 topics are given.
 * @example
 * ```ts
 * import { pairedTTest } from "@lib/metrics/mod.ts";
 * pairedTTest([0.3, 0.5, 0.4], [0.2, 0.3, 0.4]).p;
 * ```
 */
export function pairedTTest(a: readonly number[], b: readonly number[]): TTestResult {
  checkPaired(a, b, "a paired t-test");
  const d = a.map((v, i) => v - b[i]);
  const m = mean(d);
  let ss = 0;
  for (const v of d) ss += (v - m) * (v - m);
  const df = d.length - 1;
  const se = Math.sqrt(ss / df / d.length);
  if (se === 0) {
    return { meanDifference: m, t: m === 0 ? NaN : m * Infinity, df, p: m === 0 ? 1 : 0 };
  }
  const t = m / se;
  return { meanDifference: m, t, df, p: studentTwoSidedP(t, df) };
}
