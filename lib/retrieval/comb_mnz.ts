// CombMNZ fusion of runs (Fox and Shaw).

import type { RunRow } from "../types/records.ts";
import { comb, type CombOptions } from "./_comb.ts";

/**
 * CombMNZ fusion (Fox and Shaw, TREC-2 1994): CombSUM multiplied by the number
 * of runs that retrieved the document. Normalisation as in {@link combSum}.
 *
 * @param runs Runs to fuse.
 * @param opts `normalization` (`"minmax"`), `depth` (all), `run` (`"combmnz"`).
 * @returns The fused run (new rows).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { combMnz } from "@lib/retrieval/mod.ts";
 * import type { RunRow } from "@lib/types/mod.ts";
 * const bm25Rows: RunRow[] = [
 *   { run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 12.5 },
 *   { run: "bm25", topicId: "q1", docId: "d2", rank: 2, score: 8 },
 * ];
 * const denseRows: RunRow[] = [{ run: "dense", topicId: "q1", docId: "d2", rank: 1, score: 0.8 }];
 * const fused = combMnz([bm25Rows, denseRows]);
 * assert.deepEqual(fused.map((r) => [r.docId, r.score]), [["d2", 2], ["d1", 1]]);
 * ```
 */
export function combMnz(runs: readonly (readonly RunRow[])[], opts: CombOptions = {}): RunRow[] {
  return comb(runs, true, opts);
}
