/**
 * Three-way key point rates (supported / omitted / contradicted).
 *
 * @module
 */

/** Three-way key point label. */
export type KeyPointLabel = "supported" | "omitted" | "contradicted";

/**
 * Rates of the three-way key point labels (supported / omitted / contradicted)
 * over all key points given.
 *
 * @param labels One label per key point.
 * @returns The share of each label (all NaN for no labels).
 * @throws {RangeError} On an unknown label.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyPointRates } from "@lib/metrics/mod.ts";
 * assert.deepEqual(keyPointRates(["supported", "omitted", "supported", "contradicted"]), { supported: 0.5, omitted: 0.25, contradicted: 0.25 });
 * ```
 */
export function keyPointRates(labels: readonly KeyPointLabel[]): Record<KeyPointLabel, number> {
  const counts = { supported: 0, omitted: 0, contradicted: 0 };
  for (const label of labels) {
    if (!(label in counts)) {
      throw new RangeError(
        `Cannot count key point label "${label}": use supported, omitted or contradicted`,
      );
    }
    counts[label]++;
  }
  const n = labels.length;
  return {
    supported: counts.supported / n,
    omitted: counts.omitted / n,
    contradicted: counts.contradicted / n,
  };
}
