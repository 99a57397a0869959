/**
 * Agreement of a scalar answer rating with human pairwise preferences.
 *
 * @module
 */

/** One human-labelled pair of answers with their ratings. */
export interface PreferencePair {
  ratingA: number;
  ratingB: number;
  /** Which answer the human preferred; `tie` pairs are removed. */
  human: "A" | "B" | "tie";
}

/**
 * Pairwise preference accuracy: the share of human-labelled pairs (human ties
 * removed) where the answer with the higher rating is the one humans
 * preferred. Equal ratings count as a miss.
 *
 * @param pairs Labelled pairs.
 * @returns Accuracy in [0, 1]; NaN when no pair is left.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { preferenceAccuracy } from "@lib/metrics/mod.ts";
 * assert.equal(preferenceAccuracy([{ ratingA: 1, ratingB: 0.5, human: "A" }, { ratingA: 1, ratingB: 2, human: "A" }]), 0.5);
 * ```
 */
export function preferenceAccuracy(pairs: readonly PreferencePair[]): number {
  const labelled = pairs.filter((p) => p.human !== "tie");
  const hits =
    labelled.filter((p) => p.human === "A" ? p.ratingA > p.ratingB : p.ratingB > p.ratingA).length;
  return labelled.length ? hits / labelled.length : NaN;
}
