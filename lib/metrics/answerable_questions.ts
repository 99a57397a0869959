/**
 * The answerable set A of a topic: one definition for the evaluator, the
 * selection, the report judge and the analyses.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "./crux_defaults.ts";

/**
 * Which sub-questions are answerable: q is when some rated item among `rows`
 * (the oracle set P*, or every rated passage of the topic before selection)
 * rates it >= tau. Ratings are in sub-question order; -1 (unparseable) counts as
 * 0; an item without ratings (`undefined`) answers nothing.
 *
 * @param rows Ratings of the items, one list per item, in sub-question order.
 * @param questions Number of sub-questions of the topic.
 * @param opts `tau` (default {@linkcode CRUX_DEFAULTS}.tau = 3).
 * @returns `mask[q]` = sub-question q is answerable.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerableQuestions } from "@lib/metrics/mod.ts";
 * assert.deepEqual(answerableQuestions([[5, 0, 2], [1, 3, -1]], 3), [true, true, false]);
 * assert.deepEqual(answerableQuestions([[5, 0, 2], undefined], 3, { tau: 5 }), [true, false, false]);
 * ```
 */
export function answerableQuestions(
  rows: Iterable<ArrayLike<number> | undefined>,
  questions: number,
  opts: { tau?: number } = {},
): boolean[] {
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const mask = new Array<boolean>(questions).fill(false);
  for (const row of rows) {
    if (!row) continue;
    const n = Math.min(row.length, questions);
    for (let q = 0; q < n; q++) if (Math.max(row[q], 0) >= tau) mask[q] = true;
  }
  return mask;
}
