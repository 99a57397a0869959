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
 * combSum([bm25Rows, denseRows], { normalization: "zscore" });
 * ```
 */
export function combSum(runs: readonly (readonly RunRow[])[], opts: CombOptions = {}): RunRow[] {
  return comb(runs, false, opts);
}
