/**
 * The coverage cells of the sub-question method as measure rows: per run, the
 * shares (in %) of each type's judged sub-questions answered and/or retrieved
 * and their count, which the measure stage stores and the cells table shows.
 *
 * @module
 */
import type { TypedCoverageLine } from "@lib/formats/mod.ts";
import { formatTopicSet, subquestionTypeScores } from "@lib/metrics/mod.ts";
import { measureRow } from "@lib/store/mod.ts";
import type { MeasureRow } from "@lib/types/mod.ts";

/** The three sub-question types, in table order. */
export const CELL_TYPES = ["core", "background", "follow-up"] as const;

/** A column of the cells table: the four cells, #1 (answered) and the count. */
export type CellColumn = "ar" | "an" | "nr" | "nn" | "a" | "n";

const NAMES: Record<CellColumn, string> = {
  ar: "subq_pct_answered_retrieved",
  an: "subq_pct_answered_not_retrieved",
  nr: "subq_pct_not_answered_retrieved",
  nn: "subq_pct_not_answered_not_retrieved",
  a: "subq_pct_answered",
  n: "subq_count",
};

/**
 * Names and rows of the cells: `measure(column, type)` is the stored measure of a
 * column and type (`subq_pct_answered_retrieved_core`, ..., `subq_pct_answered_core`,
 * `subq_count_core`); `rows(lines, opts)` the run-level rows (topic `all`, the
 * judgments pooled over the run's topics; topic set `judged(n=<topics>)`). The four
 * cells need `retrieved` on every line of the run (no row otherwise, e.g. direct
 * prompting); a share over no sub-question of the type has no row; the count always has one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { subqCells } from "@lib/methods/subq/cell_measures.ts";
 * const line = (answered: boolean, retrieved: boolean) => ({
 *   questionId: "t1", subQuestion: "a?", type: "core" as const, system: "rag", answered, retrieved,
 * });
 * const rows = subqCells.rows([line(true, true), line(false, true)], { judge: "j", source: "decompose" });
 * const value = (m: string) => rows.find((r) => r.measure === m)?.value;
 * assert.equal(value(subqCells.measure("ar", "core")), 50);
 * assert.equal(value(subqCells.measure("nr", "core")), 50);
 * assert.equal(value(subqCells.measure("n", "core")), 2);
 * assert.equal(value(subqCells.measure("a", "background")), undefined);
 * ```
 */
export const subqCells = {
  /** The stored measure of a column and type. */
  measure(column: CellColumn, type: (typeof CELL_TYPES)[number]): string {
    return `${NAMES[column]}_${type}`;
  },
  /** The run-level rows of the cells of every run of `lines`. */
  rows(
    lines: readonly TypedCoverageLine[],
    opts: { judge: string; source: string },
  ): MeasureRow[] {
    const rows: MeasureRow[] = [];
    for (const run of [...new Set(lines.map((l) => l.system))].sort()) {
      const mine = lines.filter((l) => l.system === run);
      const topics = new Set(mine.map((l) => l.questionId)).size;
      const withChunks = mine.every((l) => l.retrieved !== undefined);
      const s = subquestionTypeScores(
        mine.map((l) => ({ type: l.type, answered: l.answered, retrieved: l.retrieved ?? false })),
      );
      const add = (column: CellColumn, type: (typeof CELL_TYPES)[number], value: number) => {
        if (!Number.isFinite(value)) return;
        rows.push(measureRow({
          run,
          topicId: "all",
          measure: subqCells.measure(column, type),
          method: "subq",
          judge: opts.judge,
          source: opts.source,
          value,
          topics,
          topicSet: formatTopicSet({ kind: "judged", n: topics }),
        }));
      };
      for (const t of CELL_TYPES) {
        const c = s.cells[t];
        if (withChunks) {
          add("ar", t, 100 * c.answeredRetrieved);
          add("an", t, 100 * c.answeredNotRetrieved);
          add("nr", t, 100 * c.notAnsweredRetrieved);
          add("nn", t, 100 * c.notAnsweredNotRetrieved);
        }
        add("a", t, 100 * s.answered[t]);
        add("n", t, mine.filter((l) => l.type === t).length);
      }
    }
    return rows;
  },
};
