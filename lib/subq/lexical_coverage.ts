/**
 * The offline coverage backend: lexical overlap with the best-matching sentence.
 *
 * @module
 */
import { splitSentences } from "@lib/text/mod.ts";
import { contentTerms } from "./_terms.ts";

/** Result of {@linkcode lexicalCoverage}. */
export interface LexicalCoverage {
  answered: boolean;
  /** The best-matching sentence (the span), or null when no sentence shares a term. */
  span: string | null;
  /** Share of the sub-question's content terms in that sentence (0-1). */
  overlap: number;
}

/**
 * Judges offline (backend `lexical-coverage (offline)`) whether a text
 * answers a sub-question: the sentence holding the largest share of the
 * sub-question's content terms (analyzed: lower-cased, stemmed, stop words
 * removed) is the span, and the sub-question counts as answered when that
 * share reaches `threshold`.
 *
 * @param subQuestion The sub-question.
 * @param text The answer or chunk.
 * @param opts `threshold` (default 0.5).
 * @returns Answered, the span and the overlap.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lexicalCoverage } from "@lib/subq/mod.ts";
 * const c = lexicalCoverage("When did the bridge collapse?", "Rain fell. The bridge collapsed on Tuesday.");
 * assert.deepEqual(c, { answered: true, span: "The bridge collapsed on Tuesday.", overlap: 1 });
 * ```
 */
export function lexicalCoverage(
  subQuestion: string,
  text: string,
  opts: { threshold?: number } = {},
): LexicalCoverage {
  const terms = [...new Set(contentTerms(subQuestion))];
  let best: { span: string | null; overlap: number } = { span: null, overlap: 0 };
  if (terms.length) {
    for (const sentence of splitSentences(text)) {
      const have = new Set(contentTerms(sentence));
      const overlap = terms.filter((t) => have.has(t)).length / terms.length;
      if (overlap > best.overlap) best = { span: sentence, overlap };
    }
  }
  return { answered: best.overlap >= (opts.threshold ?? 0.5), ...best };
}
