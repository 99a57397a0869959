// Lucene's English analyzer: tokenizing, lower-casing, stop words and Porter stemming.

import { scanWords } from "./_scan.ts";
import { analyzeToken } from "./_analyze_token.ts";

/** Name and version of the analyzer, recorded in index manifests. */
export const ENGLISH_ANALYZER = "lucene-english-v1";

/**
 * Turns text into index terms exactly as Lucene's `EnglishAnalyzer` (default
 * settings) does: standard tokenization ({@link tokenize}), English possessive
 * removal (`John's` -> `John`), lower-casing, removal of the 33 default stop
 * words ({@link ENGLISH_STOP_WORDS}) and Porter stemming ({@link porterStem}).
 * Analyzed forms are memoised, so repeated words cost one map lookup.
 *
 * @param text Any text.
 * @returns The terms in order (a new array); stop words leave no gap.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(analyze("The company's running costs rose."), ["compani", "run", "cost", "rose"]);
 * ```
 */
export function analyze(text: string): string[] {
  const out: string[] = [];
  scanWords(text, (start, end) => {
    const term = analyzeToken(text.slice(start, end));
    if (term !== null) out.push(term);
  });
  return out;
}
