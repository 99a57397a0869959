// How many sub-questions a topic gets: CRUX's counts by dataset, or the config's.

/** Sub-questions per topic by dataset, as in CRUX: 15 for DUC 2004, 10 for Multi-News. */
const PAPER_COUNTS: Readonly<Record<string, number>> = { duc04: 15, multi_news: 10 };

/** Count for a topic whose dataset has no entry (the Multi-News setting). */
const FALLBACK = 10;

/**
 * How many sub-questions to generate for a topic of a dataset: `counts` may be
 * one number for every dataset, or a map from dataset (`Topic.source`, e.g.
 * `duc04`, `multi_news`, `sample`; a `default` key covers the rest) to a count,
 * laid over CRUX's counts (DUC 15, Multi-News 10; any other dataset 10).
 *
 * @param source The topic's dataset, when known.
 * @param counts Override: a number, or counts by dataset.
 * @returns A positive integer.
 * @throws {RangeError} When the chosen count is not a positive integer.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(subquestionCount("duc04"), 15);
 * assert.equal(subquestionCount("multi_news"), 10);
 * assert.equal(subquestionCount("duc04", { duc04: 12 }), 12);
 * assert.equal(subquestionCount("sample", 8), 8);
 * ```
 */
export function subquestionCount(
  source: string | undefined,
  counts?: number | Readonly<Record<string, number>>,
): number {
  const table = typeof counts === "number" ? undefined : { ...PAPER_COUNTS, ...counts };
  const n = typeof counts === "number"
    ? counts
    : (source !== undefined ? table![source] : undefined) ?? table!.default ?? FALLBACK;
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(
      `Cannot generate sub-questions for dataset "${
        source ?? "unknown"
      }": the count must be a positive integer, got ${n}; fix the sub-question count setting`,
    );
  }
  return n;
}
