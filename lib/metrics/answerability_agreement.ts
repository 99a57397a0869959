/**
 * Agreement of graded answerability ratings with binary human labels.
 *
 * @module
 */
import { checkPaired } from "./_pairs.ts";
import { cohenKappa } from "./cohen_kappa.ts";
import { CRUX_DEFAULTS } from "./crux_defaults.ts";

/** Result of {@linkcode answerabilityAgreement}. */
export interface AnswerabilityAgreement {
  /** Of the pairs the judge calls answerable (rating >= tau), the share humans call answerable. */
  precision: number;
  /** Of the pairs humans call answerable, the share the judge calls answerable. */
  recall: number;
  f1: number;
  /** Cohen's kappa of the binarised judge against the humans. */
  kappa: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
}

/**
 * Precision and recall of binary answerability (rating >= tau) against human
 * labels, as in CRUX's judge validation.
 *
 * @param ratings Judge ratings 0-5 (-1 counts as 0).
 * @param human Human labels (true = answerable), same pairs in the same order.
 * @param opts `tau` (default 3).
 * @returns Precision, recall, F1, kappa and the confusion counts (NaN where undefined).
 * @throws {RangeError} When the lengths differ or nothing is given.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerabilityAgreement } from "@lib/metrics/mod.ts";
 * assert.equal(answerabilityAgreement([5, 1, 3, 0], [true, false, false, true]).precision, 0.5);
 * ```
 */
export function answerabilityAgreement(
  ratings: readonly number[],
  human: readonly boolean[],
  opts: { tau?: number } = {},
): AnswerabilityAgreement {
  checkPaired(ratings, human as unknown[] as number[], "answerability agreement", 1);
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const judge = ratings.map((r) => r >= tau);
  let tp = 0, fp = 0, fn = 0, tn = 0;
  judge.forEach((j, i) => {
    if (j && human[i]) tp++;
    else if (j) fp++;
    else if (human[i]) fn++;
    else tn++;
  });
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  return {
    precision,
    recall,
    f1: (2 * precision * recall) / (precision + recall),
    kappa: cohenKappa(judge, human),
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    trueNegatives: tn,
  };
}
