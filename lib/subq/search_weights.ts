/**
 * Choosing the type weights of the answer rating on a validation split.
 *
 * @module
 */
import {
  answerRating,
  preferenceAccuracy,
  type SubquestionType,
  type TypedCoverage,
} from "@lib/metrics/mod.ts";
import { seededRandom } from "@lib/metrics/mod.ts";

/** A human-labelled pair with the judged sub-questions of both answers. */
export interface LabelledPair {
  a: readonly TypedCoverage[];
  b: readonly TypedCoverage[];
  human: "A" | "B" | "tie";
}

/** Type weights. */
export type TypeWeights = Record<SubquestionType, number>;

/** Result of {@linkcode searchWeights}. */
export interface WeightSearch {
  weights: TypeWeights;
  /** Accuracy of the chosen weights on the validation pairs (ties removed). */
  validationAccuracy: number;
  /** Accuracy of the chosen weights on the other pairs (ties removed); NaN without any. */
  testAccuracy: number;
  /** Labelled (non-tie) pairs in each split. */
  validationPairs: number;
  testPairs: number;
}

/** Accuracy of a weighting over pairs (ties removed; NaN without labelled pairs). */
export function weightedAccuracy(pairs: readonly LabelledPair[], weights: TypeWeights): number {
  return preferenceAccuracy(pairs.map((p) => ({
    ratingA: answerRating(p.a, { weights }),
    ratingB: answerRating(p.b, { weights }),
    human: p.human,
  })));
}

/**
 * Grid search of the type weights: human ties are removed, the remaining pairs
 * are shuffled with `seed` and the first `validation` share (rounded, at least
 * one pair) is held aside; every weighting on the grid (core fixed at 1, since
 * only the ratios matter, background and follow-up from `grid`) is scored by
 * preference accuracy on it; the best one (ties broken toward the default
 * weights, then grid order) is reported with its accuracy on the rest.
 *
 * @param pairs Labelled pairs.
 * @param opts `validation` share (default 0.5), `seed` (default 42), `grid` (default -1 to 1 by 0.25).
 * @returns The chosen weights and the accuracies.
 * @throws {RangeError} When no pair has a human preference.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { searchWeights } from "@lib/subq/mod.ts";
 * const core = (answered: boolean) => ({ type: "core" as const, answered, retrieved: false });
 * const pairs = [{ a: [core(true)], b: [core(false)], human: "A" as const }];
 * assert.equal(searchWeights([...pairs, ...pairs]).testAccuracy, 1);
 * ```
 */
export function searchWeights(
  pairs: readonly LabelledPair[],
  opts: { validation?: number; seed?: number; grid?: readonly number[] } = {},
): WeightSearch {
  const labelled = pairs.filter((p) => p.human !== "tie");
  if (!labelled.length) {
    throw new RangeError("Cannot search weights: no pair has a human preference (all are ties)");
  }
  const rnd = seededRandom(opts.seed ?? 42);
  const shuffled = [...labelled];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const nVal = Math.max(1, Math.round(shuffled.length * (opts.validation ?? 0.5)));
  const val = shuffled.slice(0, nVal);
  const test = shuffled.slice(nVal);
  const grid = opts.grid ?? [-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1];
  let best: TypeWeights = { core: 1, background: 0.5, "follow-up": -1 };
  let bestAcc = weightedAccuracy(val, best);
  for (const background of grid) {
    for (const followUp of grid) {
      const w = { core: 1, background, "follow-up": followUp };
      const acc = weightedAccuracy(val, w);
      if (acc > bestAcc) [best, bestAcc] = [w, acc];
    }
  }
  return {
    weights: best,
    validationAccuracy: bestAcc,
    testAccuracy: test.length ? weightedAccuracy(test, best) : NaN,
    validationPairs: val.length,
    testPairs: test.length,
  };
}
