// Lucene's standard tokenizer (Unicode word segmentation) with lower-casing.

import { scanWords } from "./_scan.ts";

/**
 * Splits text into lower-cased word tokens the way Lucene's `StandardTokenizer`
 * followed by a lower-case filter does (Unicode word segmentation, UAX #29):
 * numbers keep internal `.`/`,` (`3.5`, `1,000`), words keep internal
 * apostrophes and dots (`don't`, `u.s`), letters and digits join (`covid19`),
 * ideographs are single tokens, punctuation is dropped, and words longer than
 * 255 characters are cut into 255-character pieces. No stemming, no stop words.
 *
 * @param text Any text.
 * @returns The tokens in order (a new array; empty for text without words).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(tokenize("The U.S. economy grew 3.5% in 2023."), ["the", "u.s", "economy", "grew", "3.5", "in", "2023"]);
 * ```
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  scanWords(text, (start, end) => {
    out.push(text.slice(start, end).toLowerCase());
  });
  return out;
}
