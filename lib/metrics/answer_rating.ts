/**
 * The type-weighted answer rating of Xie et al. and its pairwise preference accuracy.
 *
 * @module
 */
import type { SubquestionType, TypedCoverage } from "./subquestion_type_scores.ts";

/** Default weights: core 1, background 0.5, follow-up -1. */
export const ANSWER_WEIGHTS: Readonly<Record<SubquestionType, number>> = {
  core: 1,
  background: 0.5,
  "follow-up": -1,
};

/**
 * Rates one answer: the sum over types of w_t x coverage_t, coverage_t being
 * the share of the answer's type-t sub-questions it answers (types without
 * sub-questions add 0).
 *
 * @param items The answer's judged sub-questions.
 * @param opts `weights` (default core 1, background 0.5, follow-up -1).
 * @returns The rating.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerRating } from "@lib/metrics/mod.ts";
 * assert.deepEqual(answerRating([
 *   { type: "core", answered: true, retrieved: true },
 *   { type: "follow-up", answered: true, retrieved: false },
 * ]), 0); // 1 - 1
 * ```
 */
export function answerRating(
  items: readonly TypedCoverage[],
  opts: { weights?: Readonly<Record<SubquestionType, number>> } = {},
): number {
  const weights = opts.weights ?? ANSWER_WEIGHTS;
  let rating = 0;
  for (const type of Object.keys(weights) as SubquestionType[]) {
    const list = items.filter((x) => x.type === type);
    if (list.length) {
      rating += weights[type] * (list.filter((x) => x.answered).length / list.length);
    }
  }
  return rating;
}
