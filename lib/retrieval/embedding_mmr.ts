/**
 * MMR reranking with similarities from any embedder (an embeddings endpoint, or TF-IDF offline).
 *
 * @module
 */
import { cosine } from "./cosine.ts";
import type { Embedder } from "@lib/types/mod.ts";
import { mmr, type MmrOptions, type MmrPick } from "./mmr.ts";

/**
 * Maximal marginal relevance over embedding vectors: the candidates' texts are
 * embedded in one `embed` call and {@link mmr} picks by first-stage score
 * (min-max normalised by default) against the largest cosine to those already
 * picked. With an endpoint embedder this is the paper's MMR (all-mpnet-base-v2
 * vectors); with `tfidfEmbedder` it is the offline stand-in.
 *
 * @param candidates Candidates with a first-stage `score` and their `text`, best first.
 * @param embedder Embeds the texts (one vector per text, all of one length).
 * @param opts `lambda` (0.5), `k` (all), `normalize` (true), as for {@link mmr}.
 * @returns The candidates in MMR order, each with its `mmr` score.
 * @throws {RangeError} When the embedder returns a different number of vectors than texts.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { embeddingMmr, tfidfEmbedder } from "@lib/retrieval/mod.ts";
 * const hits = [
 *   { docId: "d1", score: 9, text: "Storm hits the coast" },
 *   { docId: "d2", score: 8, text: "The storm hits coast" },
 *   { docId: "d3", score: 5, text: "Rescuers save a fishing crew" },
 * ];
 * const picks = await embeddingMmr(hits, tfidfEmbedder(hits.map((h) => h.text)));
 * assert.deepEqual(picks.map((p) => p.docId), ["d1", "d3", "d2"]);
 * ```
 */
export async function embeddingMmr<T extends { score: number; text: string }>(
  candidates: readonly T[],
  embedder: Embedder,
  opts: MmrOptions = {},
): Promise<MmrPick<T>[]> {
  if (!candidates.length) return [];
  const vectors = await embedder.embed(candidates.map((c) => c.text));
  if (vectors.length !== candidates.length) {
    throw new RangeError(
      `Embedder ${embedder.name} returned ${vectors.length} vectors for ${candidates.length} ` +
        `texts; check the embeddings endpoint`,
    );
  }
  return mmr(candidates, (i, j) => cosine(vectors[i], vectors[j]), opts);
}
