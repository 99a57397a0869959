/**
 * Paired randomization (permutation) test between two runs.
 *
 * @module
 */
import { checkPaired } from "./_pairs.ts";
import { seededRandom } from "./seeded_random.ts";

/** Options of {@linkcode randomizationTest}. */
export interface RandomizationOptions {
  /** Number of random sign assignments. Default 10,000. */
  trials?: number;
  /** PRNG seed, for reproducible p-values. Default 1. */
  seed?: number;
}

/**
 * Two-sided paired randomization test: under the null hypothesis each topic's
 * difference a - b is equally likely to have either sign, so the p-value is
 * the share of random sign assignments whose |mean difference| reaches the
 * observed one, computed as (extreme + 1) / (trials + 1).
 *
 * @param a Per-topic values of run A.
 * @param b Per-topic values of run B, paired with `a`.
 * @param opts `trials` (default 10,000), `seed` (default 1).
 * @returns The observed mean difference and the p-value.
 * @throws {RangeError} When the lengths differ, fewer than 2 topics, or trials < 1.
 * @example
 * ```ts
 * import { randomizationTest } from "@lib/metrics/mod.ts";
 * const runA = [0.31, 0.52, 0.44, 0.61, 0.27]; // per-topic values, same topic order
 * const runB = [0.22, 0.48, 0.40, 0.50, 0.20];
 * randomizationTest(runA, runB, { trials: 100_000, seed: 7 }).p; // about 0.06 (2 of 32 sign patterns)
 * ```
 */
export function randomizationTest(
  a: readonly number[],
  b: readonly number[],
  opts: RandomizationOptions = {},
): { meanDifference: number; p: number } {
  checkPaired(a, b, "a randomization test");
  const trials = opts.trials ?? 10_000;
  if (!(trials >= 1)) {
    throw new RangeError(`Cannot run a randomization test with ${trials} trials; use at least 1`);
  }
  const random = seededRandom(opts.seed ?? 1);
  const d = Float64Array.from(a, (v, i) => v - b[i]);
  let observed = 0;
  for (const v of d) observed += v;
  const threshold = Math.abs(observed) - 1e-12 * Math.max(1, Math.abs(observed));
  let extreme = 0;
  for (let t = 0; t < trials; t++) {
    let sum = 0;
    for (let i = 0; i < d.length; i++) sum += random() < 0.5 ? -d[i] : d[i];
    if (Math.abs(sum) >= threshold) extreme++;
  }
  return { meanDifference: observed / d.length, p: (extreme + 1) / (trials + 1) };
}
