/**
 * Bootstrap confidence intervals over topics.
 *
 * @module
 */
import { mean } from "./_pairs.ts";
import { seededRandom } from "./seeded_random.ts";

/** Options of {@linkcode bootstrapCi}. */
export interface BootstrapOptions {
  /** Resamples. Default 1,000. */
  samples?: number;
  /** Confidence level. Default 0.95. */
  level?: number;
  /** PRNG seed. Default 1. */
  seed?: number;
}

/**
 * Percentile bootstrap interval of the mean of per-topic values: topics are
 * resampled with replacement `samples` times and the interval is the
 * (1 - level)/2 and (1 + level)/2 quantiles of the resampled means (linear
 * interpolation). For a paired comparison pass the per-topic differences.
 *
 * @param values Per-topic values.
 * @param opts `samples` (default 1,000), `level` (default 0.95), `seed` (default 1).
 * @returns The sample mean and the interval bounds.
 * @throws {RangeError} On no values, samples < 1, or a level outside (0, 1).
 * @example
 * ```ts
 * import { bootstrapCi } from "@lib/metrics/mod.ts";
 * bootstrapCi([0.2, 0.4, 0.5, 0.9], { seed: 3 }); // { mean: 0.5, lower: ..., upper: ... }
 * ```
 */
export function bootstrapCi(
  values: readonly number[],
  opts: BootstrapOptions = {},
): { mean: number; lower: number; upper: number } {
  const samples = opts.samples ?? 1000;
  const level = opts.level ?? 0.95;
  if (!values.length) throw new RangeError("Cannot bootstrap an empty list of values");
  if (!(samples >= 1)) {
    throw new RangeError(`Cannot bootstrap with ${samples} samples; use at least 1`);
  }
  if (!(level > 0 && level < 1)) {
    throw new RangeError(`Cannot bootstrap at level ${level}; use a value in (0, 1)`);
  }
  const random = seededRandom(opts.seed ?? 1);
  const n = values.length;
  const means = new Float64Array(samples);
  for (let s = 0; s < samples; s++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)];
    means[s] = sum / n;
  }
  means.sort();
  const quantile = (q: number) => {
    const pos = q * (samples - 1);
    const lo = Math.floor(pos);
    const hi = Math.min(lo + 1, samples - 1);
    return means[lo] + (means[hi] - means[lo]) * (pos - lo);
  };
  return { mean: mean(values), lower: quantile((1 - level) / 2), upper: quantile((1 + level) / 2) };
}
