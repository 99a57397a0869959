// Reads an UMBRELA-style relevance grade from the last "final score: N" of an answer.

import type { ParseResult } from "./types.ts";
import { plainAnswer } from "./plain_answer.ts";
import { finalAnswer } from "./final_answer.ts";

const FINAL =
  /(?:^|[^\w])#*\s*final\s+score\s*(?:\([^()\n]*\)\s*)?[:=]?\s*(-?\d+(?:\.\d+)?)(?![\d.]*\s*(?:-|–|to)\s*\d)/gi;

/**
 * Reads an UMBRELA-style relevance grade from the last "final score: N"
 * statement (`##final score: 3` as the prompt asks, or with markdown emphasis,
 * other case, or no hashes); N must be a whole number 0-3. A scale such as
 * "final score (0-3)" without a grade, a fraction, or an answer cut before the
 * grade is a failure with the raw text.
 *
 * @param text Model output.
 * @returns The grade, or a failure carrying the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseFinalScore("The passage answers it.\n##final score: 3"), { ok: true, value: 3 });
 * assert.deepEqual(parseFinalScore("**Final Score:** 2"), { ok: true, value: 2 });
 * ```
 */
export function parseFinalScore(text: string): ParseResult<number> {
  const all = [...plainAnswer(finalAnswer(text)).matchAll(FINAL)];
  if (!all.length) return { ok: false, raw: text, reason: 'no "##final score: N" line found' };
  const value = Number(all[all.length - 1][1]);
  if (!Number.isInteger(value)) {
    return { ok: false, raw: text, reason: `final score ${all[all.length - 1][1]} is not whole` };
  }
  if (value < 0 || value > 3) {
    return { ok: false, raw: text, reason: `final score ${value} is outside 0-3` };
  }
  return { ok: true, value };
}
