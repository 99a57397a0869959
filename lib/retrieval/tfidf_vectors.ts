// TF-IDF vectors of texts under the English analyzer, for MMR and the offline dense run.

import { TermEncoder } from "../text/term_encoder.ts";
import type { SparseVector } from "./sparse_vector.ts";

/** Options of {@link tfidfVectors}. */
export interface TfidfOptions {
  /** Use 1 + ln(tf) instead of raw counts (default false). */
  sublinearTf?: boolean;
}

/** Result of {@link tfidfVectors}: one vector per text over a shared vocabulary. */
export interface TfidfResult {
  vectors: SparseVector[];
  /** Term of each dimension (analyzed with the English analyzer). */
  terms: string[];
  /** Smoothed idf of each dimension. */
  idf: Float64Array;
}

/**
 * TF-IDF vectors of a set of texts: the offline stand-in for embeddings.
 * Terms come from the English analyzer; weight = tf * idf with the smoothed
 * idf = ln((1 + N) / (1 + df)) + 1 (as scikit-learn's default), each vector
 * L2-normalised, so the dot product of two vectors is their cosine.
 *
 * @param texts The texts (their order is kept).
 * @param opts `sublinearTf` (default false).
 * @returns Vectors, vocabulary and idf.
 * @example
 * ```ts
 * import { cosine, tfidfVectors } from "@lib/retrieval/mod.ts";
 * const { vectors } = tfidfVectors(["storm hits coast", "coast guard"]);
 * cosine(vectors[0], vectors[1]); // > 0 (they share "coast")
 * ```
 */
export function tfidfVectors(texts: readonly string[], opts: TfidfOptions = {}): TfidfResult {
  const encoder = new TermEncoder();
  const bags = texts.map((text) => {
    const counts = new Map<number, number>();
    for (const t of encoder.encode(text)) counts.set(t, (counts.get(t) ?? 0) + 1);
    return counts;
  });
  const df = new Float64Array(encoder.terms.length);
  for (const bag of bags) for (const t of bag.keys()) df[t]++;
  const n = texts.length;
  const idf = df.map((d) => Math.log((1 + n) / (1 + d)) + 1);
  const vectors = bags.map((bag) => {
    const indices = Uint32Array.from([...bag.keys()].sort((x, y) => x - y));
    const values = new Float32Array(indices.length);
    let sq = 0;
    const raw = Array.from(indices, (t) => {
      const tf = bag.get(t)!;
      const w = (opts.sublinearTf ? 1 + Math.log(tf) : tf) * idf[t];
      sq += w * w;
      return w;
    });
    const norm = Math.sqrt(sq);
    for (let i = 0; i < raw.length; i++) values[i] = raw[i] / norm;
    return { indices, values };
  });
  return { vectors, terms: encoder.terms.slice(), idf };
}
