/**
 * Offline reranking of a first-stage run: MMR over TF-IDF passage vectors.
 *
 * @module
 */
import { cosine, mmr, tfidfVectors } from "@lib/retrieval/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import type { RunRow } from "@lib/types/mod.ts";
import type { RerankConfig } from "./experiment_config.ts";
import { rankings } from "./_ranking.ts";

/** What {@linkcode rerankRun} did. */
export interface RerankSummary {
  run: string;
  /** Run rows written (0 when the run was already in the workspace). */
  written: number;
  skipped: boolean;
}

/**
 * Computes a reranked run from a first-stage run in the workspace and stores
 * it: for each topic, the top `depth` passages (default 50) reordered by
 * maximal marginal relevance (lambda default 0.5) with min-max normalised
 * first-stage scores as relevance and the cosine of TF-IDF vectors (fitted on
 * the topic's candidates) as similarity. Scores of the new run are `depth - i`
 * so that score order is MMR order. A run already stored is left untouched.
 *
 * @param ws The experiment workspace.
 * @param cfg Run name, first-stage run, `lambda` (0.5), `depth` (50).
 * @returns Rows written, or `skipped` when the run exists.
 * @throws {RangeError} When the first-stage run is not in the workspace.
 * @example
 * ```ts
 * import { rerankRun } from "@lib/analysis/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace; // a workspace with the run "bm25"
 * await rerankRun(ws, { name: "bm25-mmr", from: "bm25", method: "mmr", lambda: 0.5 });
 * ```
 */
export async function rerankRun(ws: Workspace, cfg: RerankConfig): Promise<RerankSummary> {
  const have = await ws.query<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM runs WHERE run = $1`,
    [cfg.name],
  );
  if (have[0].n > 0) return { run: cfg.name, written: 0, skipped: true };
  const source = await ws.runRows(cfg.from);
  if (source.length === 0) {
    throw new RangeError(
      `Cannot rerank run "${cfg.from}" into "${cfg.name}": the workspace has no run "${cfg.from}"; retrieve it first`,
    );
  }
  const texts = new Map((await ws.passages()).map((p) => [p.passageId, p.text]));
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
  await ws.insert("runs", rows);
  return { run: cfg.name, written: rows.length, skipped: false };
}
