/**
 * Win rates between runs from pairwise verdicts.
 *
 * @module
 */
import type { PairVerdict } from "./pairwise_judge.ts";

/** One verdict between two runs on one topic (A = `runA`). */
export interface RunVerdict {
  topicId: string;
  runA: string;
  runB: string;
  verdict: PairVerdict;
}

/** A cell of the win-rate matrix. */
export interface WinRateCell {
  /** The row's run. */
  run: string;
  /** The column's run. */
  opponent: string;
  wins: number;
  losses: number;
  ties: number;
  /** (wins + ties / 2) / comparisons; null on the diagonal or without comparisons. */
  winRate: number | null;
}

/**
 * The win-rate matrix between runs: for every ordered pair (row, column), the
 * row's wins, losses and ties over the topics where the two were compared, and
 * its win rate with ties counted as half a win (so the matrix is 1 - its
 * transpose off the diagonal).
 *
 * @param verdicts Verdicts, each pair of runs once per topic in either order.
 * @param runs The runs in display order (default: sorted names in the verdicts).
 * @returns Cells row by row.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { winRates } from "@lib/subq/mod.ts";
 * const cells = winRates([
 *   { topicId: "t1", runA: "x", runB: "y", verdict: "A" },
 *   { topicId: "t2", runA: "x", runB: "y", verdict: "tie" },
 * ]);
 * assert.equal(cells.find((c) => c.run === "x" && c.opponent === "y")!.winRate, 0.75);
 * ```
 */
export function winRates(verdicts: readonly RunVerdict[], runs?: readonly string[]): WinRateCell[] {
  const names = runs ?? [...new Set(verdicts.flatMap((v) => [v.runA, v.runB]))].sort();
  const cells: WinRateCell[] = [];
  for (const run of names) {
    for (const opponent of names) {
      let wins = 0, losses = 0, ties = 0;
      if (run !== opponent) {
        for (const v of verdicts) {
          const mine = v.runA === run && v.runB === opponent
            ? "A"
            : v.runB === run && v.runA === opponent
            ? "B"
            : null;
          if (!mine) continue;
          if (v.verdict === "tie") ties++;
          else if (v.verdict === mine) wins++;
          else losses++;
        }
      }
      const n = wins + losses + ties;
      cells.push({ run, opponent, wins, losses, ties, winRate: n ? (wins + ties / 2) / n : null });
    }
  }
  return cells;
}
