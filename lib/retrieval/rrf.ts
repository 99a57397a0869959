// Reciprocal rank fusion of runs (Cormack et al.).

import type { RunRow } from "../types/records.ts";
import { byTopic, toRows } from "./_fuse.ts";

/** Options of {@link rrf}. */
export interface RrfOptions {
  /** Rank offset k in 1 / (k + rank) (default 60, Cormack et al.). */
  k?: number;
  /** Only the top `depth` documents of each run and topic count (default all). */
  depth?: number;
  /** Name of the fused run (default `"rrf"`). */
  run?: string;
}

/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): a
 * document's fused score is the sum over runs of 1 / (k + rank), rank counted
 * from 1 in trec_eval order (score descending, docid descending; the rank
 * column is ignored). Output is ranked the same way.
 *
 * @param runs Runs to fuse (rows of any topics).
 * @param opts `k` (60), `depth` (all), `run` name (`"rrf"`).
 * @returns The fused run (new rows).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rrf } from "@lib/retrieval/mod.ts";
 * import type { RunRow } from "@lib/types/mod.ts";
 * const bm25Rows: RunRow[] = [
 *   { run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 12.5 },
 *   { run: "bm25", topicId: "q1", docId: "d2", rank: 2, score: 8 },
 * ];
 * const denseRows: RunRow[] = [{ run: "dense", topicId: "q1", docId: "d2", rank: 1, score: 0.8 }];
 * const fused = rrf([bm25Rows, denseRows], { k: 60, run: "hybrid" });
 * assert.deepEqual(fused.map((r) => r.docId), ["d2", "d1"]);
 * assert.ok(Math.abs(fused[0].score - (1 / 61 + 1 / 62)) < 1e-12);
 * assert.ok(Math.abs(fused[1].score - 1 / 61) < 1e-12);
 * ```
 */
export function rrf(runs: readonly (readonly RunRow[])[], opts: RrfOptions = {}): RunRow[] {
  const k = opts.k ?? 60;
  const depth = opts.depth ?? Infinity;
  const fused = new Map<string, Map<string, number>>();
  for (const run of runs) {
    for (const [topic, rows] of byTopic(run)) {
      let scores = fused.get(topic);
      if (!scores) fused.set(topic, scores = new Map());
      rows.slice(0, depth).forEach((row, i) => {
        scores!.set(row.docId, (scores!.get(row.docId) ?? 0) + 1 / (k + i + 1));
      });
    }
  }
  return toRows(fused, opts.run ?? "rrf");
}
