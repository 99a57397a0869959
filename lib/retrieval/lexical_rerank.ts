/**
 * An offline stand-in for model rerankers: BM25 over the candidates with an expanded query.
 *
 * @module
 */
import { Bm25Index, type Bm25SearchOptions } from "./bm25_index.ts";

/** A candidate to rerank: its id and text. */
export interface LexicalCandidate {
  docId: string;
  text: string;
}

/** A reranked candidate with its BM25 score over the candidate set (0 when no term matches). */
export interface LexicalPick {
  docId: string;
  score: number;
}

/**
 * Reranks one query's candidates by BM25 (Lucene's formula, statistics of the
 * candidate set itself) for the query expanded by its sub-questions (their
 * text is appended, so a term the sub-questions repeat weighs more). The
 * offline stand-in for the model rerankers: no model, no call. Candidates
 * matching no query term score 0; ties keep the first-stage order.
 *
 * @param query The request or query text.
 * @param expansions Texts appended to the query (e.g. the topic's sub-questions).
 * @param candidates The first-stage candidates, best first (ids distinct).
 * @param opts BM25 `k1` (0.9), `b` (0.4) and `exactLengths` (false: Lucene's one-byte lengths).
 * @returns Every candidate, by score descending.
 * @throws {Error} When a candidate id repeats.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lexicalRerank } from "@lib/retrieval/mod.ts";
 * assert.deepEqual(lexicalRerank("bridge collapse", ["When was the bridge inspected?"], [
 *   { docId: "a", text: "The mayor spoke." },
 *   { docId: "b", text: "The bridge was inspected in 2023." },
 * ]).map((p) => p.docId), ["b", "a"]);
 * ```
 */
export function lexicalRerank(
  query: string,
  expansions: readonly string[],
  candidates: readonly LexicalCandidate[],
  opts: Bm25SearchOptions = {},
): LexicalPick[] {
  const position = new Map<string, number>();
  candidates.forEach((c, i) => {
    if (position.has(c.docId)) {
      throw new Error(
        `Cannot rerank: candidate "${c.docId}" appears twice in the list; remove the repeat`,
      );
    }
    position.set(c.docId, i);
  });
  if (!candidates.length) return [];
  const index = Bm25Index.build(candidates.map((c) => ({ id: c.docId, text: c.text })), opts);
  const text = [query, ...expansions].join("\n");
  const score = new Map(index.search(text, candidates.length).map((h) => [h.docId, h.score]));
  return candidates
    .map((c) => ({ docId: c.docId, score: score.get(c.docId) ?? 0 }))
    .sort((a, b) => b.score - a.score || position.get(a.docId)! - position.get(b.docId)!);
}
