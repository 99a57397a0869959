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
 * combMnz([bm25Rows, denseRows]);
 * ```
 */
export function combMnz(runs: readonly (readonly RunRow[])[], opts: CombOptions = {}): RunRow[] {
  return comb(runs, true, opts);
}
