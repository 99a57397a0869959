/**
 * Writing the method's scores into the measure table.
 *
 * @module
 */
import type { TypedCoverageLine } from "@lib/formats/mod.ts";
import { formatTopicSet, type SubquestionType } from "@lib/metrics/mod.ts";
import { deleteMeasures, measureRow, type WorkspaceLike, writeMeasures } from "@lib/store/mod.ts";
import type { MeasureRow } from "@lib/types/mod.ts";
import { type SystemScores, systemScores } from "./system_scores.ts";

const KEYS = ["core", "background", "follow-up", "all"] as const;

/** The measure names the method writes, in display order. */
export const SUBQ_MEASURES: readonly string[] = [
  ...KEYS.map((k) => `subq_answered_${k}`),
  ...KEYS.map((k) => `subq_retrieved_${k}`),
  "subq_m3",
  "subq_m4",
  "subq_m5",
  "subq_m6",
  "subq_rating",
];

function values(s: SystemScores): [string, number | null][] {
  return [
    ...KEYS.map((k): [string, number | null] => [`subq_answered_${k}`, s.answered[k]]),
    ...KEYS.map((k): [string, number | null] => [`subq_retrieved_${k}`, s.retrieved?.[k] ?? null]),
    ["subq_m3", s.metrics.m3],
    ["subq_m4", s.metrics.m4],
    ["subq_m5", s.metrics.m5],
    ["subq_m6", s.metrics.m6],
    ["subq_rating", s.rating],
  ];
}

/**
 * Measure rows of typed coverage lines: per run (`system`) and topic
 * (`questionId`), and per run over all its topics (`topic_id = 'all'`, the
 * judgments pooled as in {@linkcode systemScores}, the rating the mean over
 * topics, `topics` = topics scored). Measures without inputs (null) get no row.
 * `method = 'subq'`, `cutoff = ''`.
 *
 * @param lines Typed coverage lines.
 * @param opts Judge (the coverage judge), source (the sub-questions' origin), weights.
 * @returns The rows.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { subqMeasureRows } from "@lib/subq/mod.ts";
 * const line = { questionId: "t1", subQuestion: "a?", type: "core" as const, system: "rag", answered: true };
 * // answered core and all, and the rating; per topic and over all topics
 * assert.equal(subqMeasureRows([line], { judge: "j", source: "decompose" }).length, 6);
 * ```
 */
export function subqMeasureRows(
  lines: readonly TypedCoverageLine[],
  opts: { judge: string; source: string; weights?: Readonly<Record<SubquestionType, number>> },
): MeasureRow[] {
  const rows: MeasureRow[] = [];
  const add = (run: string, topicId: string, s: SystemScores, topics: number | null) => {
    for (const [measure, value] of values(s)) {
      if (value === null) continue;
      rows.push(
        measureRow({
          run,
          topicId,
          measure,
          method: "subq",
          judge: opts.judge,
          source: opts.source,
          value,
          topics,
          // One question, or the questions scored for the system.
          topicSet: topicId === "all"
            ? formatTopicSet({ kind: "judged", n: topics ?? 0 })
            : formatTopicSet({ kind: "topic", id: topicId }),
        }),
      );
    }
  };
  for (const run of [...new Set(lines.map((l) => l.system))].sort()) {
    const mine = lines.filter((l) => l.system === run);
    const topics = [...new Set(mine.map((l) => l.questionId))].sort();
    for (const t of topics) {
      add(run, t, systemScores(mine.filter((l) => l.questionId === t), opts), null);
    }
    add(run, "all", systemScores(mine, opts), topics.length);
  }
  return rows;
}

/**
 * Replaces the method's rows of `source` and `judge` in `measures` with `rows`.
 *
 * @param ws The workspace.
 * @param rows From {@linkcode subqMeasureRows}.
 * @param opts The judge and source the rows belong to.
 * @returns Rows written.
 * @example
 * ```ts
 * import { storeSubqMeasures } from "@lib/subq/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await storeSubqMeasures(ws, [], { judge: "lexical coverage (offline)", source: "decompose" });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function storeSubqMeasures(
  ws: WorkspaceLike,
  rows: readonly MeasureRow[],
  opts: { judge: string; source: string },
): Promise<number> {
  await deleteMeasures(ws, {
    method: "subq",
    judgeSources: [{ judge: opts.judge, source: opts.source }],
  });
  await writeMeasures(ws, rows);
  return rows.length;
}
