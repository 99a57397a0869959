/**
 * Significance marks for a table of runs: paired tests between every pair of
 * runs with Holm's correction, and bootstrap intervals per run.
 *
 * @module
 */
import { bootstrapCi } from "./bootstrap_ci.ts";
import { holmAdjust } from "./holm_adjust.ts";
import { pairedTTest } from "./paired_t.ts";
import { randomizationTest } from "./randomization.ts";

/** One per-topic value of a run. */
export interface RunTopicValue {
  run: string;
  topicId: string;
  value: number;
}

/** Options of {@linkcode runSignificance}. */
export interface RunSignificanceOptions {
  /** Random sign assignments of the randomization test. Default 10,000. */
  trials?: number;
  /** Bootstrap resamples. Default 1,000. */
  samples?: number;
  /** Confidence level of the intervals. Default 0.95. */
  level?: number;
  /** Family-wise significance level for the marks. Default 0.05. */
  alpha?: number;
  /** Seed of the randomization test and the bootstrap. Default 1. */
  seed?: number;
}

/** A run's mean and bootstrap interval over its topics. */
export interface RunInterval {
  run: string;
  topics: number;
  mean: number;
  lower: number;
  upper: number;
}

/** Paired tests of two runs over the topics both have. NaN = not testable (< 2 shared topics). */
export interface RunPairTest {
  a: string;
  b: string;
  topics: number;
  /** Mean of a - b over the shared topics. */
  meanDifference: number;
  randomizationP: number;
  tP: number;
  /** Holm-adjusted p-values across every pair of the table. */
  randomizationHolm: number;
  tHolm: number;
  /** Holm-adjusted randomization p <= alpha. */
  significant: boolean;
}

/** Result of {@linkcode runSignificance}. */
export interface RunSignificance {
  intervals: RunInterval[];
  pairs: RunPairTest[];
  alpha: number;
}

/**
 * For every pair of runs (in the order first seen), the two-sided paired
 * randomization test and paired t-test over their shared topics, each
 * Holm-corrected across all the pairs; and for every run the percentile
 * bootstrap interval of its mean over topics. Seeded: the same input and seed
 * give the same numbers. A constant measure has a zero-width interval.
 *
 * @param values Per-topic values; one per (run, topic).
 * @param opts `trials` (10,000), `samples` (1,000), `level` (0.95), `alpha` (0.05), `seed` (1).
 * @returns Intervals per run and tests per pair.
 * @throws {RangeError} On a repeated (run, topic).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSignificance } from "@lib/metrics/mod.ts";
 * const v = (run: string, topicId: string, value: number) => ({ run, topicId, value });
 * const r = runSignificance([v("a", "t1", 0.5), v("a", "t2", 0.7), v("b", "t1", 0.4), v("b", "t2", 0.5)]);
 * assert.ok(Math.abs(r.pairs[0].meanDifference - 0.15) < 1e-12); // (0.1 + 0.2) / 2
 * ```
 */
export function runSignificance(
  values: readonly RunTopicValue[],
  opts: RunSignificanceOptions = {},
): RunSignificance {
  const byRun = new Map<string, Map<string, number>>();
  for (const v of values) {
    let m = byRun.get(v.run);
    if (!m) byRun.set(v.run, m = new Map());
    if (m.has(v.topicId)) {
      throw new RangeError(`Run "${v.run}" has two values for topic "${v.topicId}"`);
    }
    m.set(v.topicId, v.value);
  }
  const seed = opts.seed ?? 1;
  const alpha = opts.alpha ?? 0.05;
  const intervals = [...byRun].map(([run, m]) => ({
    run,
    topics: m.size,
    ...bootstrapCi([...m.values()], { samples: opts.samples, level: opts.level, seed }),
  }));
  const runs = [...byRun.keys()];
  const raw: Omit<RunPairTest, "randomizationHolm" | "tHolm" | "significant">[] = [];
  for (let i = 0; i < runs.length; i++) {
    for (let j = i + 1; j < runs.length; j++) {
      const [ma, mb] = [byRun.get(runs[i])!, byRun.get(runs[j])!];
      const shared = [...ma.keys()].filter((t) => mb.has(t)).sort();
      const x = shared.map((t) => ma.get(t)!), y = shared.map((t) => mb.get(t)!);
      const testable = shared.length >= 2;
      raw.push({
        a: runs[i],
        b: runs[j],
        topics: shared.length,
        meanDifference: shared.length
          ? x.reduce((s, v, k) => s + v - y[k], 0) / shared.length
          : NaN,
        randomizationP: testable ? randomizationTest(x, y, { trials: opts.trials, seed }).p : NaN,
        tP: testable ? pairedTTest(x, y).p : NaN,
      });
    }
  }
  const rHolm = holmAdjust(raw.map((p) => p.randomizationP));
  const tHolm = holmAdjust(raw.map((p) => p.tP));
  const pairs = raw.map((p, i) => ({
    ...p,
    randomizationHolm: rHolm[i],
    tHolm: tHolm[i],
    significant: rHolm[i] <= alpha,
  }));
  return { intervals, pairs, alpha };
}
