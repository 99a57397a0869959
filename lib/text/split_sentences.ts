// Splits English text into sentences.

import { sentenceSpans } from "./_sentence_spans.ts";

/**
 * Splits English text into sentences. A sentence ends at `.`, `!` or `?`
 * (plus closing quotes or brackets) followed by white space and a capital
 * letter, digit or opening quote, and at every paragraph break (blank line).
 * Periods of titles and initials (`Mr.`, `Dr.`, `Gen.`, `J. Smith`, `No. 5`)
 * never end a sentence; dotted acronyms and company suffixes (`U.S.`, `a.m.`,
 * `Inc.`, `etc.`) end one only when a typical sentence opener (`The`, `He`,
 * `But`, ...) follows. Decimal numbers (`3.5`) are never split.
 *
 * @param text Any text.
 * @returns The sentences, trimmed, in order (a new array; empty for blank text).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(splitSentences("Mr. Smith went to Washington. He met U.S. officials there."), ["Mr. Smith went to Washington.", "He met U.S. officials there."]);
 * ```
 */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map(([s, e]) => text.slice(s, e));
}
