/**
 * Agreement of the type-weighted rating and of the pairwise judge with human preferences.
 *
 * @module
 */
import { answerRating, preferenceAccuracy, type TypedCoverage } from "@lib/metrics/mod.ts";
import {
  type LabelledPair,
  searchWeights,
  type TypeWeights,
  type WeightSearch,
} from "./search_weights.ts";
import type { PairVerdict } from "./pairwise_judge.ts";

/** A human-labelled pair with the judged sub-questions of both answers and the pairwise verdict. */
export interface JudgedPreference extends LabelledPair {
  a: readonly TypedCoverage[];
  b: readonly TypedCoverage[];
  /** The pairwise judge's verdict (both orders combined); absent when not judged. */
  pairwise?: PairVerdict;
}

/** Result of {@linkcode preferenceResults}. */
export interface PreferenceResults {
  /** Pairs with a human preference (ties removed) / all pairs. */
  labelled: number;
  pairs: number;
  /** Accuracy of the core-only rating (weights 1, 0, 0). */
  coreOnly: number | null;
  /** Accuracy of the hybrid rating with the given weights (default 1, 0.5, -1). */
  hybrid: number | null;
  /** Accuracy of the pairwise judge (a judge tie counts as a miss); null without verdicts. */
  pairwise: number | null;
  /** The weight search on a held-aside validation split; null with fewer than two labelled pairs. */
  search: WeightSearch | null;
}

const num = (v: number) => (Number.isFinite(v) ? v : null);

/**
 * Preference accuracies over human-labelled pairs (METRICS.md: ties removed,
 * equal ratings count as a miss): the core-only rating, the hybrid rating, the
 * pairwise judge, and a weight search (validation share and seed as in
 * {@linkcode searchWeights}).
 *
 * @param pairs Judged pairs.
 * @param opts `weights` of the hybrid rating, `validation`, `seed`.
 * @returns The accuracies (null where nothing is left to score).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { preferenceResults } from "@lib/subq/mod.ts";
 * const core = (answered: boolean) => ({ type: "core" as const, answered, retrieved: false });
 * const r = preferenceResults([{ a: [core(true)], b: [core(false)], human: "A", pairwise: "tie" }]);
 * assert.equal(r.pairwise, 0);
 * ```
 */
export function preferenceResults(
  pairs: readonly JudgedPreference[],
  opts: { weights?: TypeWeights; validation?: number; seed?: number } = {},
): PreferenceResults {
  const acc = (w?: TypeWeights) =>
    num(preferenceAccuracy(pairs.map((p) => ({
      ratingA: answerRating(p.a, w ? { weights: w } : {}),
      ratingB: answerRating(p.b, w ? { weights: w } : {}),
      human: p.human,
    }))));
  const judged = pairs.filter((p) => p.pairwise !== undefined && p.human !== "tie");
  const labelled = pairs.filter((p) => p.human !== "tie").length;
  return {
    labelled,
    pairs: pairs.length,
    coreOnly: acc({ core: 1, background: 0, "follow-up": 0 }),
    hybrid: acc(opts.weights),
    pairwise: judged.length
      ? judged.filter((p) => p.pairwise === p.human).length / judged.length
      : null,
    search: labelled >= 2 ? searchWeights(pairs, opts) : null,
  };
}
