// The offline embedder: TF-IDF vectors standing in for a dense model.

import { analyze } from "../text/analyze.ts";
import type { Embedder } from "@lib/types/mod.ts";

/** Options of {@link tfidfEmbedder}. */
export interface TfidfEmbedderOptions {
  /** Number of hashed dimensions (default 1024). */
  dimensions?: number;
}

function hash(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * An offline {@link Embedder}: TF-IDF weights (idf fitted on `corpus`, smoothed
 * as in {@link tfidfVectors}; unseen terms get the highest idf) hashed into a
 * fixed number of dimensions with a sign bit (feature hashing), L2-normalised.
 * Deterministic; cosine of two embeddings approximates their TF-IDF cosine.
 *
 * @param corpus Texts to fit document frequencies on.
 * @param opts `dimensions` (default 1024).
 * @returns An embedder named `tfidf-hash-<dimensions>`.
 * @throws {RangeError} When `dimensions` is not a positive integer.
 * @example
 * ```ts
 * import { tfidfEmbedder } from "@lib/retrieval/mod.ts";
 * const passages = [{ text: "Hurricane hits Florida" }, { text: "Storm damage on the coast" }];
 * const embedder = tfidfEmbedder(passages.map((p) => p.text), { dimensions: 512 });
 * const vectors = await embedder.embed(["hurricane damage"]); // one Float32Array of length 512
 * ```
 */
export function tfidfEmbedder(
  corpus: readonly string[],
  opts: TfidfEmbedderOptions = {},
): Embedder {
  const dims = opts.dimensions ?? 1024;
  if (!Number.isInteger(dims) || dims < 1) {
    throw new RangeError(`Cannot embed into ${dims} dimensions: use a positive integer`);
  }
  const df = new Map<string, number>();
  for (const text of corpus) {
    for (const t of new Set(analyze(text))) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const n = corpus.length;
  const idf = (t: string) => Math.log((1 + n) / (1 + (df.get(t) ?? 0))) + 1;
  const embedOne = (text: string): Float32Array => {
    const v = new Float32Array(dims);
    const counts = new Map<string, number>();
    for (const t of analyze(text)) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [t, tf] of counts) {
      const h = hash(t);
      v[h % dims] += (h & 0x80000000 ? -1 : 1) * tf * idf(t);
    }
    let sq = 0;
    for (let i = 0; i < dims; i++) sq += v[i] * v[i];
    const norm = Math.sqrt(sq);
    if (norm > 0) { for (let i = 0; i < dims; i++) v[i] /= norm; }
    return v;
  };
  return {
    name: `tfidf-hash-${dims}`,
    embed: (texts) => Promise.resolve(texts.map(embedOne)),
  };
}
