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
 * import { combMnz } from "@lib/retrieval/mod.ts";
 * import type { RunRow } from "@lib/types/mod.ts";
 * const bm25Rows: RunRow[] = [
 *   { run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 12.5 },
 *   { run: "bm25", topicId: "q1", docId: "d2", rank: 2, score: 8 },
 * ];
 * const denseRows: RunRow[] = [{ run: "dense", topicId: "q1", docId: "d2", rank: 1, score: 0.8 }];
 * combMnz([bm25Rows, denseRows]); // d2 (score 2) then d1 (score 1)
 * ```
 */
export function combMnz(runs: readonly (readonly RunRow[])[], opts: CombOptions = {}): RunRow[] {
  return comb(runs, true, opts);
}
