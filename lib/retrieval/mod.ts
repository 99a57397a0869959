/**
 * Retrieval: a persistent Lucene-compatible BM25 index (`Bm25Index`), TF-IDF
 * vectors and an offline TF-IDF embedder, brute-force dense search
 * (`DenseIndex`, `denseRun`), run fusion (`rrf`, `combSum`, `combMnz`) and MMR re-ranking.
 * Reranking cores independent of the model: sliding-window listwise
 * (`listwiseRerank`, `listwiseWindows`, `parsePermutation`), setwise heap sort
 * (`setwiseRerank`), MMR over any embedder (`embeddingMmr`) and the offline
 * lexical stand-in (`lexicalRerank`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Bm25Index, cosine, mmr, tfidfVectors } from "@lib/retrieval/mod.ts";
 * import type { Passage, Topic } from "@lib/types/mod.ts";
 * const passages: Passage[] = [
 *   { passageId: "t1:d1#1", topicId: "t1", docId: "d1", text: "The storm cut power to the coast." },
 *   { passageId: "t1:d2#1", topicId: "t1", docId: "d2", text: "Ann won the race." },
 * ];
 * const topic: Topic = { topicId: "t1", request: "Report on the storm damage." };
 * const index = Bm25Index.build(passages.map((p) => ({ id: p.passageId, text: p.text })));
 * const hits = index.search(topic.request, 100);
 * const texts = new Map(passages.map((p) => [p.passageId, p.text]));
 * const { vectors } = tfidfVectors(hits.map((h) => texts.get(h.docId)!));
 * const diverse = mmr(hits, (i, j) => cosine(vectors[i], vectors[j]), { k: 10 });
 * assert.equal(diverse[0].docId, "t1:d1#1");
 * ```
 *
 * @module
 */
export {
  type Bm25BuildOptions,
  type Bm25Hit,
  Bm25Index,
  type Bm25SearchOptions,
} from "./bm25_index.ts";
export type { SparseVector } from "./sparse_vector.ts";
export { cosine } from "./cosine.ts";
export { type TfidfOptions, type TfidfResult, tfidfVectors } from "./tfidf_vectors.ts";
export type { Embedder } from "@lib/types/mod.ts";
export { tfidfEmbedder, type TfidfEmbedderOptions } from "./tfidf_embedder.ts";
export { DenseIndex } from "./dense_index.ts";
export { rrf, type RrfOptions } from "./rrf.ts";
export { type CombOptions, combSum } from "./comb_sum.ts";
export { combMnz } from "./comb_mnz.ts";
export { mmr, type MmrOptions, type MmrPick } from "./mmr.ts";
export { bm25Run, type Bm25RunOptions } from "./bm25_run.ts";
export { denseRun, type DenseRunOptions } from "./dense_run.ts";
export { parsePermutation, type Permutation } from "./parse_permutation.ts";
export { listwiseWindows } from "./listwise_windows.ts";
export {
  type ListwiseCounts,
  type ListwiseOptions,
  listwiseRerank,
  type ListwiseResult,
  type WindowRanking,
} from "./listwise_rerank.ts";
export { type LexicalCandidate, type LexicalPick, lexicalRerank } from "./lexical_rerank.ts";
export {
  type SetChoice,
  type SetwiseCounts,
  type SetwiseOptions,
  setwiseRerank,
} from "./setwise_rerank.ts";
export { embeddingMmr } from "./embedding_mmr.ts";
