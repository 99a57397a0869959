// Sentence-aware chunking of text into pieces of a bounded number of words.

import { sentenceSpans } from "./_sentence_spans.ts";

/** Options of {@link chunkText}. */
export interface ChunkOptions {
  /** Smallest chunk worth closing, in white-space separated words (default 120). */
  minWords?: number;
  /** Largest chunk, in words (default 200); only a longer sentence is ever cut. */
  maxWords?: number;
}

interface Unit {
  start: number;
  end: number;
  words: number;
}

/** Cuts a sentence longer than `max` words into near-equal word windows. */
function cutLong(text: string, start: number, end: number, max: number): Unit[] {
  const words = [...text.slice(start, end).matchAll(/\S+/g)];
  const pieces = Math.ceil(words.length / max);
  const size = Math.ceil(words.length / pieces);
  const units: Unit[] = [];
  for (let k = 0; k < words.length; k += size) {
    const last = words[Math.min(words.length, k + size) - 1];
    units.push({
      start: start + words[k].index!,
      end: start + last.index! + last[0].length,
      words: Math.min(size, words.length - k),
    });
  }
  return units;
}

/**
 * Splits a document into passages of whole sentences, about `minWords` to
 * `maxWords` words each: the deterministic, offline alternative to rewriting
 * documents into decontextualised passages with a model. Sentences come from
 * {@link splitSentences}; chunks are balanced (a 250-word document gives two
 * chunks of about 125 words, not 200 + 50) and a sentence is cut only when it
 * alone exceeds `maxWords`. Each chunk is the original text span (inner
 * white space and line breaks kept), trimmed.
 *
 * @param text A document.
 * @param opts Word limits (defaults 120 and 200).
 * @returns The chunks in document order (empty for blank text).
 * @throws {RangeError} When the limits are not positive integers with `minWords <= maxWords`.
 * @example
 * ```ts
 * import { chunkText } from "@lib/text/mod.ts";
 * const article = "Ann won the race. Bob came second.";
 * const passages = chunkText(article, { minWords: 120, maxWords: 200 });
 * // ["Ann won the race. Bob came second."] (shorter than minWords: one chunk)
 * ```
 */
export function chunkText(text: string, opts: ChunkOptions = {}): string[] {
  const minWords = opts.minWords ?? 120;
  const maxWords = opts.maxWords ?? 200;
  if (
    !Number.isInteger(minWords) || !Number.isInteger(maxWords) || minWords < 1 ||
    maxWords < minWords
  ) {
    throw new RangeError(
      `Cannot chunk text with minWords=${minWords} and maxWords=${maxWords}: ` +
        "use positive integers with minWords <= maxWords",
    );
  }
  const units: Unit[] = [];
  for (const [s, e] of sentenceSpans(text)) {
    const words = text.slice(s, e).match(/\S+/g)?.length ?? 0;
    if (words > maxWords) units.push(...cutLong(text, s, e, maxWords));
    else units.push({ start: s, end: e, words });
  }
  const total = units.reduce((sum, u) => sum + u.words, 0);
  if (total === 0) return [];
  const target = Math.max(minWords, total / Math.ceil(total / maxWords));
  const chunks: Unit[][] = [];
  let current: Unit[] = [];
  let size = 0;
  for (const unit of units) {
    if (current.length > 0 && (size + unit.words > maxWords || size >= target)) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(unit);
    size += unit.words;
  }
  chunks.push(current);
  const count = (c: Unit[]) => c.reduce((sum, u) => sum + u.words, 0);
  if (chunks.length > 1) {
    const tail = chunks[chunks.length - 1];
    const prev = chunks[chunks.length - 2];
    if (count(tail) < minWords && count(prev) + count(tail) <= maxWords) {
      chunks.splice(chunks.length - 2, 2, [...prev, ...tail]);
    } else {
      // Move sentences from the previous chunk while that balances the two.
      let p = count(prev);
      let t = count(tail);
      while (t < minWords && prev.length > 1) {
        const w = prev[prev.length - 1].words;
        if (t + w > maxWords || Math.abs(p - w - (t + w)) >= Math.abs(p - t)) break;
        tail.unshift(prev.pop()!);
        p -= w;
        t += w;
      }
    }
  }
  return chunks.map((c) => text.slice(c[0].start, c[c.length - 1].end));
}
