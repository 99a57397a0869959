/** MMR reranking of one run's rankings (private to `rerankRun`). */
import { cosine, mmr, tfidfVectors } from "@lib/retrieval/mod.ts";
import type { RunRow } from "@lib/types/mod.ts";
import type { MmrRerankConfig } from "./rerank_run.ts";
import { rankings } from "./run_rankings.ts";

/**
 * For each topic, the top `depth` passages reordered by MMR with min-max
 * normalised first-stage scores as relevance and the cosine of TF-IDF vectors
 * (fitted on the topic's candidates) as similarity; scores `depth - i`.
 */
export function mmrRows(
  source: readonly RunRow[],
  texts: ReadonlyMap<string, string>,
  cfg: MmrRerankConfig,
): RunRow[] {
  const depth = cfg.depth ?? 50;
  const scores = new Map(source.map((r) => [`${r.topicId}\u0000${r.docId}`, r.score]));
  const rows: RunRow[] = [];
  for (const [topicId, ids] of rankings(source)) {
    const candidates = ids.slice(0, depth).map((docId) => ({
      docId,
      score: scores.get(`${topicId}\u0000${docId}`)!,
    }));
    const { vectors } = tfidfVectors(candidates.map((c) => texts.get(c.docId) ?? ""));
    const picked = mmr(candidates, (i, j) => cosine(vectors[i], vectors[j]), {
      lambda: cfg.lambda ?? 0.5,
    });
    picked.forEach((p, i) =>
      rows.push({ run: cfg.name, topicId, docId: p.docId, rank: i + 1, score: picked.length - i })
    );
  }
  return rows;
}
