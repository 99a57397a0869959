import type { ParseResult } from "./types.ts";

/**
 * Reads an UMBRELA-style relevance grade from the last `##final score: N` line
 * (case-insensitive, spaces optional); N must be 0-3.
 *
 * @param text Model output.
 * @returns The grade, or a failure carrying the raw text.
 * @example
 * ```ts
 * parseFinalScore("The passage answers it.\n##final score: 3"); // { ok: true, value: 3 }
 * ```
 */
export function parseFinalScore(text: string): ParseResult<number> {
  const all = [...text.matchAll(/#+\s*final\s+score\s*:\s*(-?\d+)/gi)];
  if (!all.length) return { ok: false, raw: text, reason: 'no "##final score: N" line found' };
  const value = Number(all[all.length - 1][1]);
  if (value < 0 || value > 3) {
    return { ok: false, raw: text, reason: `final score ${value} is outside 0-3` };
  }
  return { ok: true, value };
}
