/**
 * The methods compared with each headline oriented by its declared direction:
 * ranks, correlations and disagreements treat a lower value of a
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

/**
 * Compares the methods' scores as {@linkcode compareMethods} does, with the
 * scores of each lower-is-better headline negated before ranking, so a
 * correlation of +1 always means the two methods order the runs alike; the
 * system means and the disagreements' values are given back as stored.
 *
 * @param scores Answer-level scores of every method.
 * @param headlines The compared methods' headlines (their direction).
 * @param opts As {@linkcode compareMethods}.
 * @returns The comparison, values as stored, correlations oriented.
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
 * ```
 */
export function orientedComparison(
  scores: readonly MethodScore[],
  headlines: readonly MethodHeadline[],
  opts: CompareMethodsOptions = {},
): MethodComparison {
  const lower = new Set(headlines.filter((h) => !h.higherIsBetter).map((h) => h.method));
  if (!lower.size) return compareMethods(scores, opts);
  const flip = (method: string, v: number) => (lower.has(method) ? -v : v);
  const c = compareMethods(scores.map((s) => ({ ...s, value: flip(s.method, s.value) })), opts);
  return {
    ...c,
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
