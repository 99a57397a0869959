/**
 * Private: the statistics the statistics stage knows, each with the shape of
 * its inputs and its arithmetic (see `computeStatistics`). A new statistic is
 * one entry here.
 *
 * @module
 */
import {
  bootstrapCi,
  kendallTau,
  mean,
  pairedTTest,
  pearson,
  randomizationTest,
} from "@lib/metrics/mod.ts";

/**
 * How a statistic's key names its inputs and how its values pair:
 * - `vector`: one value per ref of `x`;
 * - `paired`: one value per ref of `x` and of `y`, paired by position;
 * - `perTopic`: `x` names one stored mean, its values are the topics' values;
 * - `pairedPerTopic`: `x` and `y` each name one stored mean, paired by topic;
 * - `sampled`: each ref of `x` (and of `y`, paired by position) names every sample
 *   of one run (`<run>#sample*`), parameter `contexts` their number in all.
 */
export type StatisticShape = "vector" | "paired" | "perTopic" | "pairedPerTopic" | "sampled";

type Params = Readonly<Record<string, string | number>>;

/** A statistic: its inputs' shape, the fewest values it is defined over, its arithmetic. */
export interface StatisticKind {
  shape: StatisticShape;
  /** Fewer values leave it absent with `reason` (default: 2, "undefined over n values"). */
  least?: { n: number; reason: (n: number) => string };
  /** The value, or why it is undefined on these values; throws on bad parameters. */
  compute(xs: number[], ys: number[], p: Params): number | { absent: string };
}

/** Whether a shape pairs `x` with `y`. */
export const pairedShape = (s: StatisticShape): boolean =>
  s === "paired" || s === "pairedPerTopic" || s === "sampled";

/** The reason of a statistic over too few values. */
export const tooFew = (n: number): string => `undefined over ${n} value${n === 1 ? "" : "s"}`;

/** Tau-b or r of two vectors: undefined when either is constant. */
function correlation(f: (xs: number[], ys: number[]) => number): StatisticKind["compute"] {
  return (xs, ys) => {
    const n = xs.length;
    const constant = (v: number[]) => v.every((a) => a === v[0]);
    if (constant(xs) && constant(ys)) {
      return {
        absent: `undefined: both vectors are constant (${xs[0]} and ${ys[0]} for all ${n})`,
      };
    }
    if (constant(xs) || constant(ys)) {
      return {
        absent: `undefined: the ${constant(xs) ? "first" : "second"} vector is constant (${
          (constant(xs) ? xs : ys)[0]
        } for all ${n})`,
      };
    }
    return f(xs, ys);
  };
}

/** Bound of the percentile bootstrap interval of the mean. */
function bootstrapBound(side: "lower" | "upper"): StatisticKind["compute"] {
  return (xs, _ys, p) =>
    bootstrapCi(xs, {
      samples: Number(p.samples ?? 1000),
      level: Number(p.level ?? 0.95),
      seed: Number(p.seed ?? 1),
    })[side];
}

/**
 * `rank`: the rank (1 = best) of the input at parameter `position` (from 0) among
 * all inputs of `x`, best the highest (parameter `order` `higher`) or the lowest
 * (`lower`); values equal to 9 decimals share the best rank of their group.
 */
function rankOf(xs: readonly number[], p: Params): number {
  const at = Number(p.position);
  if (
    !Number.isInteger(at) || at < 0 || at >= xs.length ||
    !["higher", "lower"].includes(`${p.order}`)
  ) {
    throw new RangeError(
      `parameter position must name an input (0 to ${xs.length - 1}) and order be higher or lower`,
    );
  }
  const round = (v: number) => Math.round(v * 1e9) / 1e9;
  const v = round(xs[at]);
  const better = (w: number) => (p.order === "lower" ? round(w) < v : round(w) > v);
  return 1 + xs.filter(better).length;
}

/** Every statistic `computeStatistics` computes from its inputs (Holm's `holm_p` aside). */
export const STATISTIC_KINDS: Readonly<Record<string, StatisticKind>> = {
  kendall_tau_b: { shape: "paired", compute: correlation(kendallTau) },
  pearson_r: { shape: "paired", compute: correlation(pearson) },
  mean: { shape: "vector", least: { n: 1, reason: () => "no inputs" }, compute: (xs) => mean(xs) },
  sd: {
    shape: "vector",
    compute: (xs) => {
      const m = mean(xs);
      return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
    },
  },
  bootstrap_ci_lower: { shape: "perTopic", compute: bootstrapBound("lower") },
  bootstrap_ci_upper: { shape: "perTopic", compute: bootstrapBound("upper") },
  paired_t_p: {
    shape: "pairedPerTopic",
    compute: (xs, ys) => (xs.every((x, i) => x === ys[i]) ? 1 : pairedTTest(xs, ys).p),
  },
  kendall_tau_b_sampled: { shape: "sampled", compute: correlation(kendallTau) },
  mean_diff: {
    shape: "pairedPerTopic",
    least: { n: 1, reason: () => "no topics both runs scored" },
    compute: (xs, ys) => xs.reduce((s, v, k) => s + v - ys[k], 0) / xs.length,
  },
  randomization_p: {
    shape: "pairedPerTopic",
    compute: (xs, ys, p) =>
      randomizationTest(xs, ys, {
        trials: Number(p.trials ?? 10_000),
        seed: Number(p.seed ?? 1),
      }).p,
  },
  rank: {
    shape: "vector",
    least: { n: 0, reason: tooFew },
    compute: (xs, _ys, p) => rankOf(xs, p),
  },
};
