// A dense index: brute-force cosine search over embeddings.

import type { Embedder } from "@lib/types/mod.ts";
import { TopK } from "./_top_k.ts";

/**
 * Brute-force cosine search over dense vectors (embeddings). Vectors are
 * L2-normalised into one contiguous `Float32Array` at build time; a search is
 * one pass of dot products plus a top-k heap. Ties go to the earlier document.
 *
 * @example
 * ```ts
 * import { DenseIndex, tfidfEmbedder } from "@lib/retrieval/mod.ts";
 * const docs = [
 *   { id: "d1", text: "Storm damage on the coast" },
 *   { id: "d2", text: "Election results in Ohio" },
 * ];
 * const embedder = tfidfEmbedder(docs.map((d) => d.text));
 * const index = await DenseIndex.fromEmbedder(docs, embedder);
 * const [query] = await embedder.embed(["storm damage"]);
 * index.search(query, 10); // [{ docId: "d1", score: 0.816... }, { docId: "d2", score: 0 }]
 * ```
 */
export class DenseIndex {
  /** Vector length. */
  readonly dimensions: number;
  /** Document ids by position. */
  readonly docIds: readonly string[];
  readonly #matrix: Float32Array;

  private constructor(docIds: string[], matrix: Float32Array, dimensions: number) {
    this.docIds = docIds;
    this.#matrix = matrix;
    this.dimensions = dimensions;
  }

  /**
   * Builds an index from ids and vectors (copied and normalised; inputs untouched).
   *
   * @param ids Document ids.
   * @param vectors One vector per id, all of the same length.
   * @returns The index.
   * @throws {RangeError} When counts or lengths disagree.
   */
  static build(ids: readonly string[], vectors: readonly Float32Array[]): DenseIndex {
    if (ids.length !== vectors.length) {
      throw new RangeError(
        `Cannot build a dense index from ${ids.length} ids and ${vectors.length} vectors`,
      );
    }
    const dims = vectors[0]?.length ?? 0;
    const matrix = new Float32Array(ids.length * dims);
    vectors.forEach((v, i) => {
      if (v.length !== dims) {
        throw new RangeError(
          `Cannot index vector of "${ids[i]}": length ${v.length}, expected ${dims}`,
        );
      }
      let sq = 0;
      for (let j = 0; j < dims; j++) sq += v[j] * v[j];
      const inv = sq > 0 ? 1 / Math.sqrt(sq) : 0;
      for (let j = 0; j < dims; j++) matrix[i * dims + j] = v[j] * inv;
    });
    return new DenseIndex([...ids], matrix, dims);
  }

  /**
   * Embeds documents in batches and builds an index.
   *
   * @param docs Documents with ids and texts.
   * @param embedder Any {@link Embedder}.
   * @param opts `batchSize` texts per `embed` call (default 64).
   * @returns The index.
   */
  static async fromEmbedder(
    docs: readonly { id: string; text: string }[],
    embedder: Embedder,
    opts: { batchSize?: number } = {},
  ): Promise<DenseIndex> {
    const size = opts.batchSize ?? 64;
    const vectors: Float32Array[] = [];
    for (let i = 0; i < docs.length; i += size) {
      vectors.push(...await embedder.embed(docs.slice(i, i + size).map((d) => d.text)));
    }
    return DenseIndex.build(docs.map((d) => d.id), vectors);
  }

  /**
   * Returns the `k` documents most similar to `query` by cosine, best first.
   *
   * @param query A vector of length {@link DenseIndex.dimensions}.
   * @param k Number of results.
   * @returns Hits with cosine scores.
   * @throws {RangeError} On a length mismatch.
   */
  search(query: Float32Array, k: number): { docId: string; score: number }[] {
    const dims = this.dimensions;
    if (query.length !== dims) {
      throw new RangeError(
        `Cannot search with a vector of length ${query.length}, expected ${dims}`,
      );
    }
    let sq = 0;
    for (let j = 0; j < dims; j++) sq += query[j] * query[j];
    const inv = sq > 0 ? 1 / Math.sqrt(sq) : 0;
    const top = new TopK(Math.max(0, Math.min(k, this.docIds.length)));
    const m = this.#matrix;
    for (let i = 0, base = 0; i < this.docIds.length; i++, base += dims) {
      let dot = 0;
      for (let j = 0; j < dims; j++) dot += m[base + j] * query[j];
      top.offer(dot * inv, i);
    }
    return top.sorted().map((h) => ({ docId: this.docIds[h.doc], score: h.score }));
  }
}
