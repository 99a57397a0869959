/**
 * The comparison's bootstrap intervals and paired tests between runs as
 * statistics: what a method's columns ask the statistics stage for, and the
 * stored rows they read back (blank, with why, when none is stored). Nothing
 * is computed here.
 *
 * @module
 */
import { type ShownStatistic, type StatisticRequest, storedStatistic } from "@lib/analysis/mod.ts";
import type { MethodScore } from "@lib/metrics/mod.ts";
import type { PresentMethod } from "@lib/pipeline/mod.ts";
import type { MeasureRef, StatisticKey, StoredStatistic } from "@lib/store/mod.ts";

/** Settings of the intervals and tests (part of each statistic's key). */
export interface SignificanceSettings {
  /** Randomization trials. */
  trials: number;
  /** Bootstrap resamples. */
  samples: number;
  /** Seed of the tests and intervals. */
  seed: number;
  /** Family-wise level of the marks (not part of a key: the marks compare the stored Holm p to it). */
  alpha: number;
}

/** A run's stored bootstrap interval over its topics. */
export interface StoredInterval {
  run: string;
  /** Topics of the run's values. */
  topics: number;
  lower: ShownStatistic;
  upper: ShownStatistic;
}

/** The stored paired tests of two runs over the topics both scored. */
export interface StoredPairTest {
  a: string;
  b: string;
  /** Topics both runs scored. */
  topics: number;
  meanDifference: ShownStatistic;
  randomizationP: ShownStatistic;
  tP: ShownStatistic;
  /** Holm-adjusted across every pair of the method's runs. */
  randomizationHolm: ShownStatistic;
  tHolm: ShownStatistic;
  /** The stored Holm-adjusted randomization p is <= alpha. */
  significant: boolean;
}

/** One method's intervals per run and tests per run pair, as stored. */
export interface StoredSignificance {
  alpha: number;
  intervals: StoredInterval[];
  pairs: StoredPairTest[];
}

/**
 * The statistics of one method's significance columns and their stored rows:
 * per run (in the order first seen) the bounds of the percentile bootstrap
 * interval of its mean over its topics (`bootstrap_ci_lower` / `_upper`); per
 * pair of runs (i < j), over the topics both scored in sorted order, the mean
 * difference (`mean_diff`), the paired randomization test p (`randomization_p`),
 * the paired t-test p (`paired_t_p`) and each test's Holm-adjusted p across
 * every pair of the method's runs (`holm_p`, its family named by its params).
 * Each names the stored run mean of the method's headline as its measure, and
 * the topic set `scored:<method>,...` (the topics every compared method scored
 * for the run; for a pair, for both runs).
 *
 * @param scores The method's per-topic scores (one per run and topic).
 * @param method The method (judge, source and measure of its rows).
 * @param compared Every compared method (the topics they all scored are those of `scores`).
 * @param settings Trials, resamples, seed and level of the marks.
 * @param statistics The stored statistics to read.
 * @returns The requests for the statistics stage, and what is stored.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { methodSignificance } from "@lib/methods/compare/significance_statistics.ts";
 * const s = (run: string, topicId: string, value: number) => ({ method: "crux", run, topicId, value });
 * const method = { method: "crux", measure: "Cov", label: "Cov", source: "report", judge: "j",
 *   range: [0, 1] as [number, number], higherIsBetter: true, runs: ["a", "b"] };
 * const { requests, shown } = methodSignificance(
 *   [s("a", "t1", 0.5), s("a", "t2", 0.7), s("b", "t1", 0.4), s("b", "t2", 0.5)],
 *   method, [method], { trials: 100, samples: 100, seed: 1, alpha: 0.05 }, [],
 * );
 * assert.equal(requests.length, 2 * 2 + 5); // two runs: two bounds each; the pair: difference, two tests, two Holm
 * assert.equal(shown.pairs[0].meanDifference.value, null); // not stored yet
 * ```
 */
export function methodSignificance(
  scores: readonly MethodScore[],
  method: PresentMethod,
  compared: readonly { method: string }[],
  settings: SignificanceSettings,
  statistics: readonly StoredStatistic[],
): { requests: StatisticRequest[]; shown: StoredSignificance } {
  const byRun = new Map<string, Map<string, number>>();
  for (const s of scores) {
    let m = byRun.get(s.run);
    if (!m) byRun.set(s.run, m = new Map());
    if (m.has(s.topicId)) {
      throw new RangeError(
        `${method.method}: run "${s.run}" has two scores for topic "${s.topicId}"`,
      );
    }
    m.set(s.topicId, s.value);
  }
  const ref = (run: string): MeasureRef => ({
    run,
    source: method.source,
    judge: method.judge,
    measure: method.measure,
  });
  const data = { statistics };
  const topicSet = `scored:${compared.map((m) => m.method).sort().join(",")}`;
  const requests: StatisticRequest[] = [];
  const ask = (key: StatisticKey, x: number[], y?: number[]): ShownStatistic => {
    requests.push({ key, x, ...(y ? { y } : {}) });
    return storedStatistic(data, key);
  };
  const sorted = (m: Map<string, number>) => [...m.keys()].sort();
  const bootstrap = { samples: settings.samples, level: 0.95, seed: settings.seed };
  const intervals = [...byRun].map(([run, m]): StoredInterval => {
    const xs = sorted(m).map((t) => m.get(t)!);
    const key = (statistic: string) => ({ statistic, x: [ref(run)], topicSet, params: bootstrap });
    return {
      run,
      topics: m.size,
      lower: ask(key("bootstrap_ci_lower"), xs),
      upper: ask(key("bootstrap_ci_upper"), xs),
    };
  });
  const runs = [...byRun.keys()];
  const family = JSON.stringify(runs);
  const randomization = { trials: settings.trials, seed: settings.seed };
  const pairs: StoredPairTest[] = [];
  for (let i = 0; i < runs.length; i++) {
    for (let j = i + 1; j < runs.length; j++) {
      const [ma, mb] = [byRun.get(runs[i])!, byRun.get(runs[j])!];
      const shared = sorted(ma).filter((t) => mb.has(t));
      const x = shared.map((t) => ma.get(t)!), y = shared.map((t) => mb.get(t)!);
      const key = (statistic: string, params: Record<string, string | number> = {}) => ({
        statistic,
        x: [ref(runs[i])],
        y: [ref(runs[j])],
        topicSet,
        params,
      });
      const holm = (test: string, params: Record<string, string | number>) =>
        ask(key("holm_p", { ...params, test, family }), [], []);
      const randomizationHolm = holm("randomization_p", randomization);
      pairs.push({
        a: runs[i],
        b: runs[j],
        topics: shared.length,
        meanDifference: ask(key("mean_diff"), x, y),
        randomizationP: ask(key("randomization_p", randomization), x, y),
        tP: ask(key("paired_t_p"), x, y),
        randomizationHolm,
        tHolm: holm("paired_t_p", {}),
        significant: randomizationHolm.value !== null &&
          randomizationHolm.value <= settings.alpha,
      });
    }
  }
  return { requests, shown: { alpha: settings.alpha, intervals, pairs } };
}
