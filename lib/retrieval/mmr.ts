// Maximal marginal relevance (Carbonell and Goldstein): reranking for relevance and novelty.

/** Options of {@link mmr}. */
export interface MmrOptions {
  /** Weight of relevance against novelty (default 0.5; 1 = relevance order). */
  lambda?: number;
  /** Number of items to select (default all candidates). */
  k?: number;
  /** Min-max normalise relevance scores to [0, 1] first (default true), so they compare with similarities. */
  normalize?: boolean;
}

/** A selected candidate with its MMR score at the time it was picked. */
export type MmrPick<T> = T & { mmr: number };

/**
 * Maximal marginal relevance re-ranking (Carbonell and Goldstein, SIGIR 1998):
 * repeatedly picks the candidate maximising
 * lambda * rel(d) - (1 - lambda) * max over picked s of sim(d, s),
 * where rel is the candidate's score (min-max normalised by default) and sim
 * the given similarity of two candidates (by position). Ties go to the earlier
 * candidate. Pure: candidates are copied, never modified.
 *
 * @param candidates Candidates with a relevance `score`, typically a ranked list.
 * @param similarity Similarity of candidates i and j (positions in `candidates`), e.g. a cosine.
 * @param opts `lambda` (0.5), `k` (all), `normalize` (true).
 * @returns The selected candidates in MMR order, each with its `mmr` score.
 * @throws {RangeError} When lambda is outside [0, 1].
 * @example
 * ```ts
 * import { cosine, mmr, tfidfVectors } from "@lib/retrieval/mod.ts";
 * const hits = [{ docId: "d1", score: 9 }, { docId: "d2", score: 8 }, { docId: "d3", score: 5 }];
 * const texts = new Map([
 *   ["d1", "Storm hits the coast"],
 *   ["d2", "The storm hits coast"],
 *   ["d3", "Rescuers save a fishing crew"],
 * ]);
 * const { vectors } = tfidfVectors(hits.map((h) => texts.get(h.docId)!));
 * mmr(hits, (i, j) => cosine(vectors[i], vectors[j]), { lambda: 0.5, k: 10 });
 * // d1, d3, d2: the near-duplicate d2 drops below the novel d3
 * ```
 */
export function mmr<T extends { score: number }>(
  candidates: readonly T[],
  similarity: (i: number, j: number) => number,
  opts: MmrOptions = {},
): MmrPick<T>[] {
  const lambda = opts.lambda ?? 0.5;
  if (!(lambda >= 0 && lambda <= 1)) {
    throw new RangeError(`Cannot run MMR with lambda=${lambda}: use a value in [0, 1]`);
  }
  const n = candidates.length;
  const k = Math.min(opts.k ?? n, n);
  let rel = candidates.map((c) => c.score);
  if (opts.normalize ?? true) {
    const min = Math.min(...rel);
    const max = Math.max(...rel);
    rel = rel.map((s) => (max === min ? 1 : (s - min) / (max - min)));
  }
  const maxSim = new Float64Array(n).fill(-Infinity);
  const taken = new Uint8Array(n);
  const picks: MmrPick<T>[] = [];
  for (let step = 0; step < k; step++) {
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < n; i++) {
      if (taken[i]) continue;
      const penalty = step === 0 ? 0 : maxSim[i];
      const score = lambda * rel[i] - (1 - lambda) * penalty;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    taken[best] = 1;
    picks.push({ ...candidates[best], mmr: bestScore });
    for (let i = 0; i < n; i++) {
      if (!taken[i]) maxSim[i] = Math.max(maxSim[i], similarity(i, best));
    }
  }
  return picks;
}
