/**
 * How much a judged measure moves when the judge is sampled again (k samples at
 * temperature > 0, or k seeds), and whether the run ranking survives.
 *
 * @module
 */
import { kendallTau } from "./kendall_tau.ts";

/** One sample's system score of a run. */
export interface SampledScore {
  /** Sample index or seed. */
  sample: string;
  run: string;
  value: number;
}

/** Result of {@linkcode judgeVariance}. */
export interface JudgeVariance {
  samples: string[];
  /** Per run: mean, sample standard deviation (n - 1), min and max over the samples. */
  runs: { run: string; mean: number; sd: number; min: number; max: number }[];
  /** Runs by mean score, best first (ties by run name). */
  meanRanking: string[];
  /** Share of samples whose ranking of the runs equals the mean ranking. */
  rankingAgreement: number;
  /** Mean Kendall tau-b between each sample's scores and the mean scores (NaN below 2 runs). */
  meanKendall: number;
}

const byScore = (values: Map<string, number>) =>
  [...values.keys()].sort((a, b) =>
    values.get(b)! - values.get(a)! || (a < b ? -1 : a > b ? 1 : 0)
  );

/**
 * Spread of each run's score over k judge samples and the stability of the run
 * ranking: the share of samples ranking the runs exactly as their means do, and
 * the mean Kendall tau-b of each sample against the means.
 *
 * @param scores One value per (sample, run); every sample must score every run.
 * @returns Per-run spread, the mean ranking and its stability.
 * @throws {RangeError} On a missing or repeated (sample, run) score, or no samples.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeVariance } from "@lib/metrics/mod.ts";
 * const v = judgeVariance([
 *   { sample: "0", run: "a", value: 0.5 }, { sample: "0", run: "b", value: 0.4 },
 *   { sample: "1", run: "a", value: 0.3 }, { sample: "1", run: "b", value: 0.4 },
 * ]);
 * assert.deepEqual(v.meanRanking, ["a", "b"]); // tied means: by name
 * assert.equal(v.rankingAgreement, 0.5); // sample 1 ranks b first
 * ```
 */
export function judgeVariance(scores: readonly SampledScore[]): JudgeVariance {
  const bySample = new Map<string, Map<string, number>>();
  for (const s of scores) {
    let m = bySample.get(s.sample);
    if (!m) bySample.set(s.sample, m = new Map());
    if (m.has(s.run)) throw new RangeError(`Sample "${s.sample}" scores run "${s.run}" twice`);
    m.set(s.run, s.value);
  }
  if (bySample.size === 0) throw new RangeError("Cannot measure judge variance: no samples");
  const runs = [...new Set(scores.map((s) => s.run))].sort();
  for (const [sample, m] of bySample) {
    const missing = runs.find((r) => !m.has(r));
    if (missing) throw new RangeError(`Sample "${sample}" has no score for run "${missing}"`);
  }
  const samples = [...bySample.keys()];
  const k = samples.length;
  const stats = runs.map((run) => {
    const xs = samples.map((s) => bySample.get(s)!.get(run)!);
    const mean = xs.reduce((a, b) => a + b, 0) / k;
    const sd = k > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (k - 1)) : 0;
    return { run, mean, sd, min: Math.min(...xs), max: Math.max(...xs) };
  });
  const means = new Map(stats.map((s) => [s.run, s.mean]));
  const meanRanking = byScore(means);
  const same = samples.filter((s) =>
    byScore(bySample.get(s)!).join("\0") === meanRanking.join("\0")
  );
  const taus = runs.length < 2
    ? []
    : samples.map((s) =>
      kendallTau(runs.map((r) => bySample.get(s)!.get(r)!), runs.map((r) => means.get(r)!))
    ).filter((t) => !Number.isNaN(t));
  return {
    samples,
    runs: stats,
    meanRanking,
    rankingAgreement: same.length / k,
    meanKendall: taus.length ? taus.reduce((a, b) => a + b, 0) / taus.length : NaN,
  };
}
