/**
 * Several evaluation methods' scores of the same answers, side by side: system
 * scores, correlations between methods across runs and per-topic disagreements.
 *
 * @module
 */
import type { MetricRow } from "@lib/types/mod.ts";
import { systemCorrelation } from "./system_correlation.ts";
import { kendallTau } from "./kendall_tau.ts";
import { spearman } from "./spearman.ts";
import { pearson } from "./pearson.ts";

/** One answer-level score: a method's headline value for (run, topic). */
export interface MethodScore {
  method: string;
  run: string;
  topicId: string;
  value: number;
}

/** Correlation of two methods across runs, per topic and over (run, topic) pairs. NaN = undefined. */
export interface MethodCorrelation {
  a: string;
  b: string;
  /** Runs both methods scored (system level). */
  runs: number;
  kendall: number;
  spearman: number;
  pearson: number;
  /** Mean over topics of the per-topic Kendall tau-b across runs (topics with an undefined value skipped). */
  topicKendall: number;
  /** Mean over topics of the per-topic Spearman correlation across runs. */
  topicSpearman: number;
  /** Mean over topics of the per-topic Pearson correlation across runs. */
  topicPearson: number;
  /** Topics whose per-topic Kendall tau-b is defined (at least `minRuns` runs, not all tied). */
  topics: number;
  /** Kendall tau over every (run, topic) pair both methods scored. */
  pairsKendall: number;
}

/** Correlation of two methods across the runs of one topic. NaN = undefined. */
export interface TopicCorrelation {
  a: string;
  b: string;
  topicId: string;
  /** Runs both methods scored on the topic. */
  runs: number;
  kendall: number;
  spearman: number;
  pearson: number;
}

/** A topic where two methods order two runs oppositely. */
export interface MethodDisagreement {
  topicId: string;
  a: string;
  b: string;
  runX: string;
  runY: string;
  /** Method a's scores of runX and runY; then method b's. */
  aX: number;
  aY: number;
  bX: number;
  bY: number;
}

/** Result of {@linkcode compareMethods}. */
export interface MethodComparison {
  methods: string[];
  runs: string[];
  /** Scores left out because some method did not score that (run, topic). */
  left: number;
  /** Per run, each method's mean over the topics every method scored for that run (null: none). */
  system: { run: string; topics: number; values: Record<string, number | null> }[];
  correlations: MethodCorrelation[];
  /** Per method pair and topic, the correlation across that topic's runs. */
  topicCorrelations: TopicCorrelation[];
  /** Opposite orders, largest (|a difference| x |b difference|) first. */
  disagreements: MethodDisagreement[];
}

/** Options of {@linkcode compareMethods}. */
export interface CompareMethodsOptions {
  /** Fewer runs than this make every correlation undefined (NaN). Default 3. */
  minRuns?: number;
  /** At most this many disagreements are listed. Default 50. */
  maxDisagreements?: number;
}

const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

/**
 * Compares evaluation methods on the same answers. Only (run, topic) answers
 * that every method scored are used (the rest are counted in `left`), so the
 * system columns and every correlation rest on the same answers; correlations use Kendall tau-b, Spearman and Pearson across
 * runs (undefined below `minRuns`), the per-topic correlations across each
 * topic's runs and their means (per-topic values on fewer than `minRuns` runs
 * are undefined and skipped), and the Kendall over all (run, topic) pairs.
 *
 * @param scores Answer-level scores of every method.
 * @param opts `minRuns` (default 3), `maxDisagreements` (default 50).
 * @returns Methods and runs in sorted order, the system table, correlations per
 *   method pair and disagreements.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareMethods } from "@lib/metrics/mod.ts";
 * const s = (method: string, run: string, topicId: string, value: number) =>
 *   ({ method, run, topicId, value });
 * const r = compareMethods([s("crux", "a", "t1", 0.5), s("nuggets", "a", "t1", 0.4)]);
 * assert.deepEqual(r.system[0].values, { crux: 0.5, nuggets: 0.4 });
 * ```
 */
export function compareMethods(
  scores: readonly MethodScore[],
  opts: CompareMethodsOptions = {},
): MethodComparison {
  const minRuns = opts.minRuns ?? 3;
  const methods = sorted(scores.map((s) => s.method));
  const runs = sorted(scores.map((s) => s.run));
  const value = new Map<string, number>();
  for (const s of scores) {
    const key = `${s.method}\0${s.run}\0${s.topicId}`;
    if (value.has(key)) {
      throw new RangeError(
        `Method "${s.method}" scores topic "${s.topicId}" of run "${s.run}" twice`,
      );
    }
    value.set(key, s.value);
  }
  const get = (m: string, r: string, t: string) => value.get(`${m}\0${r}\0${t}`);
  const topics = sorted(scores.map((s) => s.topicId));
  const complete = (s: MethodScore) => methods.every((m) => get(m, s.run, s.topicId) !== undefined);
  const kept = scores.filter(complete);
  const system = runs.map((run) => {
    const shared = topics.filter((t) => methods.every((m) => get(m, run, t) !== undefined));
    const values: Record<string, number | null> = {};
    for (const m of methods) {
      values[m] = shared.length
        ? shared.reduce((sum, t) => sum + get(m, run, t)!, 0) / shared.length
        : null;
    }
    return { run, topics: shared.length, values };
  });
  const rows = (m: string): MetricRow[] =>
    kept.filter((s) => s.method === m).map((s) => ({
      run: s.run,
      topicId: s.topicId,
      measure: m,
      value: s.value,
    }));
  const correlations: MethodCorrelation[] = [];
  const topicCorrelations: TopicCorrelation[] = [];
  const disagreements: MethodDisagreement[] = [];
  for (let i = 0; i < methods.length; i++) {
    for (let j = i + 1; j < methods.length; j++) {
      const [a, b] = [methods[i], methods[j]];
      const shared = system.filter((s) => s.values[a] !== null && s.values[b] !== null);
      const corr = (method: "kendall" | "spearman" | "pearson", level = "system" as const) =>
        shared.length < minRuns ? NaN : systemCorrelation(rows(a), rows(b), { method, level });
      const here = topics.map((topicId) => {
        const both = runs.filter((r) =>
          get(a, r, topicId) !== undefined && get(b, r, topicId) !== undefined
        );
        const x = both.map((r) => get(a, r, topicId)!), y = both.map((r) => get(b, r, topicId)!);
        const undef = both.length < minRuns;
        return {
          a,
          b,
          topicId,
          runs: both.length,
          kendall: undef ? NaN : kendallTau(x, y),
          spearman: undef ? NaN : spearman(x, y),
          pearson: undef ? NaN : pearson(x, y),
        };
      }).filter((c) => c.runs > 0);
      topicCorrelations.push(...here);
      const meanOf = (k: "kendall" | "spearman" | "pearson") => {
        const vs = here.map((c) => c[k]).filter((v) => !Number.isNaN(v));
        return vs.length ? vs.reduce((s, v) => s + v, 0) / vs.length : NaN;
      };
      const perTopic = {
        topicKendall: meanOf("kendall"),
        topicSpearman: meanOf("spearman"),
        topicPearson: meanOf("pearson"),
        topics: here.filter((c) => !Number.isNaN(c.kendall)).length,
      };
      correlations.push({
        a,
        b,
        runs: shared.length,
        kendall: corr("kendall"),
        spearman: corr("spearman"),
        pearson: corr("pearson"),
        ...perTopic,
        pairsKendall: shared.length < minRuns
          ? NaN
          : systemCorrelation(rows(a), rows(b), { level: "pairs" }),
      });
      for (const t of topics) {
        for (let x = 0; x < runs.length; x++) {
          for (let y = x + 1; y < runs.length; y++) {
            const [aX, aY, bX, bY] = [
              get(a, runs[x], t),
              get(a, runs[y], t),
              get(b, runs[x], t),
              get(b, runs[y], t),
            ];
            if ([aX, aY, bX, bY].some((v) => v === undefined)) continue;
            if ((aX! - aY!) * (bX! - bY!) < 0) {
              disagreements.push({
                topicId: t,
                a,
                b,
                runX: runs[x],
                runY: runs[y],
                aX: aX!,
                aY: aY!,
                bX: bX!,
                bY: bY!,
              });
            }
          }
        }
      }
    }
  }
  const size = (d: MethodDisagreement) => Math.abs(d.aX - d.aY) * Math.abs(d.bX - d.bY);
  disagreements.sort((p, q) => size(q) - size(p));
  return {
    methods,
    runs,
    left: scores.length - kept.length,
    system,
    correlations,
    topicCorrelations,
    disagreements: disagreements.slice(0, opts.maxDisagreements ?? 50),
  };
}
