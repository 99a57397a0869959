import type { ParseResult } from "./types.ts";

/**
 * Reads a graded answerability rating: the first integer in the output, which
 * must lie in 0-5. `"4"`, `"Rating: 4"` and `"4/5"` all give 4; `"4.5"` gives 4
 * (its first integer). An output with no integer, or whose first integer is
 * outside 0-5, is a parse failure (callers record rating -1).
 *
 * @param text Model output.
 * @returns The rating, or a failure carrying the raw text.
 * @example
 * ```ts
 * parseRating("Score: 3"); // { ok: true, value: 3 }
 * parseRating("none");     // { ok: false, raw: "none", reason: "no integer found" }
 * ```
 */
export function parseRating(text: string): ParseResult<number> {
  const m = /-?\d+/.exec(text);
  if (!m) return { ok: false, raw: text, reason: "no integer found" };
  const value = Number(m[0]);
  if (value < 0 || value > 5) {
    return { ok: false, raw: text, reason: `first integer ${m[0]} is outside 0-5` };
  }
  return { ok: true, value };
}
