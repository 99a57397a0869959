/**
 * The methods compared over the answers every method scored, with each
 * headline oriented by its declared direction: ranks, correlations and disagreements treat a lower value of a
 * lower-is-better headline as the better answer, while every value shown
 * stays as stored.
 *
 * @module
 */
import {
  compareMethods,
  type CompareMethodsOptions,
  type MethodComparison,
  type MethodScore,
} from "@lib/metrics/mod.ts";
import type { MethodHeadline } from "@lib/pipeline/mod.ts";

/** A comparison and the topic set it ran over. */
export type OrientedComparison = MethodComparison & {
  /** The topics of the answers every method scored, in sorted order: the comparison's topic set. */
  topics: string[];
};

/**
 * Compares the methods' scores as {@linkcode compareMethods} does, over the
 * answers every method scored (system means, correlations across runs, per
 * topic and over pairs, and disagreements alike; the rest counted in `left`),
 * with the scores of each lower-is-better headline negated before ranking, so
 * a correlation of +1 always means the two methods order the runs alike; the
 * system means and the disagreements' values are given back as stored.
 *
 * @param scores Answer-level scores of every method.
 * @param headlines The compared methods' headlines (their direction).
 * @param opts As {@linkcode compareMethods}.
 * @returns The comparison, values as stored, correlations oriented, with its topics.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { orientedComparison } from "@lib/methods/compare/oriented_comparison.ts";
 * const s = (method: string, run: string, value: number) => ({ method, run, topicId: "t", value });
 * const c = orientedComparison(
 *   [s("cov", "a", 0.2), s("cov", "b", 0.5), s("cov", "c", 0.9),
 *    s("err", "a", 9), s("err", "b", 4), s("err", "c", 1)],
 *   [
 *     { method: "cov", measure: "Cov", label: "Cov", range: [0, 1], higherIsBetter: true },
 *     { method: "err", measure: "E", label: "E", range: [0, null], higherIsBetter: false },
 *   ],
 * );
 * assert.equal(c.correlations[0].kendall, 1);
 * assert.equal(c.system[0].values.err, 9);
 * assert.deepEqual(c.topics, ["t"]);
 * ```
 */
export function orientedComparison(
  scores: readonly MethodScore[],
  headlines: readonly MethodHeadline[],
  opts: CompareMethodsOptions = {},
): OrientedComparison {
  // Only the answers every method scored: the comparison's one topic set.
  const methods = new Set(scores.map((s) => s.method));
  const scoredBy = new Map<string, Set<string>>();
  for (const s of scores) {
    const k = `${s.run}\0${s.topicId}`;
    scoredBy.set(k, (scoredBy.get(k) ?? new Set()).add(s.method));
  }
  const kept = scores.filter((s) => scoredBy.get(`${s.run}\0${s.topicId}`)!.size === methods.size);
  const topics = [...new Set(kept.map((s) => s.topicId))].sort();
  const left = scores.length - kept.length;
  const lower = new Set(headlines.filter((h) => !h.higherIsBetter).map((h) => h.method));
  if (!lower.size) return { ...compareMethods(kept, opts), left, topics };
  const flip = (method: string, v: number) => (lower.has(method) ? -v : v);
  const c = compareMethods(kept.map((s) => ({ ...s, value: flip(s.method, s.value) })), opts);
  return {
    ...c,
    left,
    topics,
    system: c.system.map((s) => ({
      ...s,
      values: Object.fromEntries(
        Object.entries(s.values).map(([m, v]) => [m, v === null ? null : flip(m, v) + 0]),
      ),
    })),
    disagreements: c.disagreements.map((d) => ({
      ...d,
      aX: flip(d.a, d.aX) + 0,
      aY: flip(d.a, d.aY) + 0,
      bX: flip(d.b, d.bX) + 0,
      bY: flip(d.b, d.bY) + 0,
    })),
  };
}
