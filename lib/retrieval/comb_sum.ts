// CombSUM fusion of runs (Fox and Shaw).

import type { RunRow } from "../types/records.ts";
import { comb, type CombOptions } from "./_comb.ts";

export type { CombOptions } from "./_comb.ts";

/**
 * CombSUM fusion (Fox and Shaw, TREC-2 1994): the fused score of a document is
 * the sum of its normalised scores over the runs that retrieved it. Scores are
 * normalised per run and topic (min-max by default; a topic whose scores are
 * all equal normalises to 1). Output in trec_eval order.
 *
 * @param runs Runs to fuse.
 * @param opts `normalization` (`"minmax"`), `depth` (all), `run` (`"combsum"`).
 * @returns The fused run (new rows).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { combSum } from "@lib/retrieval/mod.ts";
 * import type { RunRow } from "@lib/types/mod.ts";
 * const bm25Rows: RunRow[] = [
 *   { run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 12.5 },
 *   { run: "bm25", topicId: "q1", docId: "d2", rank: 2, score: 8 },
 * ];
 * const denseRows: RunRow[] = [{ run: "dense", topicId: "q1", docId: "d2", rank: 1, score: 0.8 }];
 * const fused = combSum([bm25Rows, denseRows], { normalization: "zscore" });
 * assert.deepEqual(fused.map((r) => [r.docId, r.score]), [["d1", 1], ["d2", -1]]);
 * ```
 */
export function combSum(runs: readonly (readonly RunRow[])[], opts: CombOptions = {}): RunRow[] {
  return comb(runs, false, opts);
}
