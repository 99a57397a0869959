/**
 * Lucene 8 `BM25Similarity` arithmetic, reproduced in float32: idf, the
 * per-length normalisation cache and the term score
 * `weight - weight / (1 + tf * normInverse)` (equal to
 * `idf * tf / (tf + k1 * (1 - b + b * dl / avgdl))`).
 */
import type { FieldStats, IndexData } from "./_index_data.ts";
import { byteToLength, lengthToByte } from "./_small_float.ts";

const f = Math.fround;

/** Lucene's idf: `ln(1 + (docCount - df + 0.5) / (df + 0.5))`, as a float. */
export function bm25Idf(df: number, docCount: number): number {
  return f(Math.log(1 + (docCount - df + 0.5) / (df + 0.5)));
}

/** Score of one posting given the term weight (boost * idf) and the doc's norm inverse. */
export function termScore(weight: number, tf: number, normInverse: number): number {
  return f(weight - f(weight / f(1 + f(tf * normInverse))));
}

/** Scoring context for one (k1, b, length mode): per-document norm inverses and term bounds. */
export interface ScoringContext {
  k1: number;
  b: number;
  exactLengths: boolean;
  /** `1 / (k1 * (1 - b + b * dl / avgdl))` per document, float32. */
  normInverse: Float32Array;
  /** Per term: the largest `tf * normInverse` over its postings (for score upper bounds). */
  maxTfNorm: Float32Array;
  /** With one-byte lengths: the norm inverse of each of the 256 length bytes. */
  normByByte?: Float32Array;
  /** The norm inverse of a document of `length` terms (decreasing in length). */
  normOfLength: (length: number) => number;
  /** Per-window maxima of `tf * normInverse` of long lists, filled on first use. */
  windowMaxima?: Map<number, Float32Array>;
}

/** Precomputes the per-document normalisation for the given parameters (one pass over postings). */
export function scoringContext(
  data: IndexData,
  stats: FieldStats,
  k1: number,
  b: number,
  exactLengths: boolean,
): ScoringContext {
  const fk1 = f(k1);
  const fb = f(b);
  const avgdl = f(stats.sumTotalTermFreq / stats.docCount);
  const inv = (len: number) => f(1 / f(fk1 * f(f(1 - fb) + f(f(fb * len) / avgdl))));
  const n = data.docIds.length;
  const normInverse = new Float32Array(n);
  let normByByte: Float32Array | undefined;
  if (exactLengths) {
    for (let d = 0; d < n; d++) normInverse[d] = inv(f(data.lengths[d]));
  } else {
    normByByte = new Float32Array(256);
    for (let i = 0; i < 256; i++) normByByte[i] = inv(byteToLength(i));
    for (let d = 0; d < n; d++) normInverse[d] = normByByte[data.norms[d]];
  }
  const byBytes = normByByte;
  const normOfLength = byBytes
    ? (len: number) => byBytes[lengthToByte(len)]
    : (len: number) => inv(f(len));
  const v = data.terms.length;
  const maxTfNorm = new Float32Array(v);
  const { offsets, postingDocs, postingTfs, blockStarts, blockImpacts } = data;
  for (let t = 0; t < v; t++) {
    let m = 0;
    if (blockStarts[t + 1] > blockStarts[t]) {
      // Long lists: from the block impacts (largest tf, shortest document) - a bound
      // at least as large, since the score grows with tf and falls with length.
      for (let i = blockStarts[t]; i < blockStarts[t + 1]; i++) {
        const x = blockImpacts[2 * i] * normOfLength(blockImpacts[2 * i + 1]);
        if (x > m) m = x;
      }
    } else {
      for (let p = offsets[t]; p < offsets[t + 1]; p++) {
        const x = postingTfs[p] * normInverse[postingDocs[p]];
        if (x > m) m = x;
      }
    }
    maxTfNorm[t] = m;
  }
  return { k1, b, exactLengths, normInverse, maxTfNorm, normByByte, normOfLength };
}
