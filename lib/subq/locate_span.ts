/**
 * Locating a judge's answering span in the judged text.
 *
 * @module
 */

/** Where a span starts in a text. */
export interface SpanLocation {
  /** The span occurs in the text (case and whitespace ignored). */
  found: boolean;
  /** Character offset of the span's start in the text; null when not found. */
  start: number | null;
  /** Start as a percentage (0-100) of the text's words before it; null when not found. */
  position: number | null;
}

function words(text: string): { word: string; start: number }[] {
  return [...text.matchAll(/\S+/g)].map((m) => ({
    word: m[0].toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""),
    start: m.index!,
  }));
}

/**
 * The words of recently searched texts. Coverage asks about each answer once per
 * sub-question (20 times in a TREC-sized experiment), one after another; splitting
 * a 400-word text into words costs about 50 µs, searching them a few.
 */
const recent = new Map<string, readonly { word: string; start: number }[]>();
/** Texts whose words are kept. */
const RECENT_TEXTS = 32;

function textWords(text: string): readonly { word: string; start: number }[] {
  let hay = recent.get(text);
  if (hay) return hay;
  hay = words(text).filter((w) => w.word);
  if (recent.size >= RECENT_TEXTS) recent.delete(recent.keys().next().value!);
  recent.set(text, hay);
  return hay;
}

/**
 * Finds a span in a text by its words (case, whitespace and punctuation at word
 * edges ignored) and returns where it starts, as a character offset and as the
 * share of the text's words before it (METRICS.md #6: 0 = the first word,
 * 100 x (i / n) for the i-th of n words). A span whose words do not occur
 * contiguously, or an empty span, is not found: callers flag it instead of guessing.
 *
 * @param text The judged text.
 * @param span The span the judge quoted.
 * @returns The location; `found: false` with null start and position otherwise.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { locateSpan } from "@lib/subq/mod.ts";
 * assert.deepEqual(locateSpan("One two three four.", "THREE four"), { found: true, start: 8, position: 50 });
 * ```
 */
export function locateSpan(text: string, span: string): SpanLocation {
  const hay = textWords(text);
  const needle = words(span).map((w) => w.word).filter(Boolean);
  if (needle.length && hay.length) {
    for (let i = 0; i + needle.length <= hay.length; i++) {
      if (needle.every((w, j) => hay[i + j].word === w)) {
        return { found: true, start: hay[i].start, position: (100 * i) / hay.length };
      }
    }
  }
  return { found: false, start: null, position: null };
}
