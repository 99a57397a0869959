/**
 * The pairwise comparison of the sub-question method as measure rows: per
 * pairwise judge and ordered pair of runs, the row's win rate and net win rate
 * over the topics the two were compared on, which the measure stage stores and
 * the win-rate table and heatmap show.
 *
 * @module
 */
import type { SubqPairwiseVerdict } from "@lib/store/mod.ts";
import { measureRow } from "@lib/store/mod.ts";
import { winRates } from "@lib/subq/mod.ts";
import type { MeasureRow } from "@lib/types/mod.ts";
import { formatTopicSet } from "@lib/metrics/mod.ts";

/** The source of every win-rate row. */
const SOURCE = "pairwise";

/** The two stored values of an ordered pair. */
export type WinRateKind = "win_rate" | "net_win_rate";

/**
 * Names and rows of the pairwise comparison. The rows (method `subq`, source
 * `pairwise`, topic `all`, judge the pairwise judge) are, for every ordered pair
 * (run, opponent) of different runs compared on at least one topic, under run
 * `run`: `subq_win_rate_vs_<opponent>` ((wins + ties / 2) / comparisons) and
 * `subq_net_win_rate_vs_<opponent>` ((wins - losses) / comparisons). Each counts
 * its comparisons (one per topic) in `topics`, with topic set `scored(n=<comparisons>)`.
 * A judge's runs are those of its verdicts; pairs never compared have no row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { subqWinRates } from "@lib/methods/subq/win_rate_measures.ts";
 * const rows = subqWinRates.rows([
 *   { topicId: "t1", runA: "x", runB: "y", verdict: "A", judge: "m" },
 *   { topicId: "t2", runA: "x", runB: "y", verdict: "tie", judge: "m" },
 * ]);
 * const x = rows.find((r) => r.run === "x" && r.measure === subqWinRates.measure("win_rate", "y"))!;
 * assert.equal(x.value, 0.75);
 * assert.equal(x.topicSet, "scored(n=2)");
 * ```
 */
export const subqWinRates = {
  /** The source of the rows. */
  source: SOURCE,
  /** The measure of a value against `opponent`. */
  measure(kind: WinRateKind, opponent: string): string {
    return `subq_${kind}_vs_${opponent}`;
  },
  /** The runs of a judge's verdicts, in name order (the table's rows and columns). */
  runs(verdicts: readonly SubqPairwiseVerdict[], judge: string): string[] {
    const mine = verdicts.filter((v) => v.judge === judge);
    return [...new Set(mine.flatMap((v) => [v.runA, v.runB]))].sort();
  },
  /** The rows of every judge's stored verdicts (see above). */
  rows(verdicts: readonly SubqPairwiseVerdict[]): MeasureRow[] {
    const out: MeasureRow[] = [];
    for (const judge of [...new Set(verdicts.map((v) => v.judge))].sort()) {
      const mine = verdicts.filter((v) => v.judge === judge);
      for (const c of winRates(mine, subqWinRates.runs(mine, judge))) {
        const n = c.wins + c.losses + c.ties;
        if (c.winRate === null || n === 0) continue;
        const add = (kind: WinRateKind, value: number) =>
          out.push(measureRow({
            run: c.run,
            topicId: "all",
            measure: subqWinRates.measure(kind, c.opponent),
            name: `subq_${kind}`,
            method: "subq",
            judge,
            source: SOURCE,
            value,
            topics: n,
            topicSet: formatTopicSet({ kind: "scored", n }),
          }));
        add("win_rate", c.winRate);
        add("net_win_rate", (c.wins - c.losses) / n);
      }
    }
    return out;
  },
};
