// The English stop words Lucene's `EnglishAnalyzer` removes.

/**
 * The 33 English stop words Lucene's `EnglishAnalyzer` removes by default
 * (`EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`). Lower-case; compared after
 * lower-casing and possessive removal, before stemming.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(ENGLISH_STOP_WORDS.has("the"), true);
 * assert.equal(ENGLISH_STOP_WORDS.has("he"), false); // (not in Lucene's list)
 * ```
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "but",
  "by",
  "for",
  "if",
  "in",
  "into",
  "is",
  "it",
  "no",
  "not",
  "of",
  "on",
  "or",
  "such",
  "that",
  "the",
  "their",
  "then",
  "there",
  "these",
  "they",
  "this",
  "to",
  "was",
  "will",
  "with",
]);
