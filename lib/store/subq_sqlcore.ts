/**
 * Reads of the typed sub-question tables (`subq_questions`, `subq_coverage`,
 * `subq_preferences`, `subq_pairwise`) for the sub-question analyses.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * The coverage judge with the most judgments (ties by name).
 *
 * @param ws The workspace.
 * @returns The judge, or undefined when no coverage is stored.
 * @example
 * ```ts
 * import { readMainSubqCoverageJudge } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const judge = await readMainSubqCoverageJudge(ws);
 * ```
 */
export async function readMainSubqCoverageJudge(ws: WorkspaceLike): Promise<string | undefined> {
  return (await ws.query<{ judge: string }>(
    `SELECT judge FROM subq_coverage GROUP BY judge ORDER BY count(*) DESC, judge LIMIT 1`,
  ))[0]?.judge;
}

/**
 * The backends that made the sub-questions of one source: decomposers first,
 * then classifiers, each in name order (a backend may appear in both lists).
 *
 * @param ws The workspace.
 * @param source The sub-question source (e.g. `decompose`).
 * @returns The backend names.
 * @example
 * ```ts
 * import { readSubqBackends } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const backends = await readSubqBackends(ws, "decompose");
 * ```
 */
export async function readSubqBackends(ws: WorkspaceLike, source: string): Promise<string[]> {
  return (await ws.query<{ b: string }>(
    `SELECT b FROM (SELECT DISTINCT decomposer AS b, 0 AS k FROM subq_questions WHERE source = $1
       UNION SELECT DISTINCT classifier, 1 FROM subq_questions
       WHERE source = $1 AND classifier IS NOT NULL) ORDER BY k, b`,
    [source],
  )).map((r) => r.b);
}

/** One stored preference pair with the judge's verdicts. */
export interface SubqPreferenceRow {
  /** The preference set (file). */
  source: string;
  /** The preferred answer of the set. */
  human: "A" | "B" | "tie";
  /** JSON text of answer A's items. */
  itemsA: string;
  /** JSON text of answer B's items. */
  itemsB: string;
  /** The pairwise judge's verdict. */
  pairwise: string;
  pairwiseJudge: string;
}

/**
 * Every stored preference pair, ordered by set, then pair.
 *
 * @param ws The workspace.
 * @returns The rows.
 * @example
 * ```ts
 * import { readSubqPreferenceRows } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const sets = new Set((await readSubqPreferenceRows(ws)).map((p) => p.source));
 * ```
 */
export async function readSubqPreferenceRows(ws: WorkspaceLike): Promise<SubqPreferenceRow[]> {
  return await ws.query<SubqPreferenceRow>(
    `SELECT source, human, items_a::VARCHAR AS "itemsA", items_b::VARCHAR AS "itemsB", pairwise,
       pairwise_judge AS "pairwiseJudge" FROM subq_preferences ORDER BY source, pair`,
  );
}

/** One pairwise verdict between two runs on a topic. */
export interface SubqPairwiseVerdict {
  topicId: string;
  runA: string;
  runB: string;
  verdict: "A" | "B" | "tie";
  judge: string;
}

/**
 * Every stored pairwise verdict, ordered by all columns.
 *
 * @param ws The workspace.
 * @returns The verdicts.
 * @example
 * ```ts
 * import { readSubqPairwiseVerdicts } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const verdicts = await readSubqPairwiseVerdicts(ws);
 * ```
 */
export async function readSubqPairwiseVerdicts(
  ws: WorkspaceLike,
): Promise<SubqPairwiseVerdict[]> {
  return await ws.query<SubqPairwiseVerdict>(
    `SELECT topic_id AS "topicId", run_a AS "runA", run_b AS "runB", verdict, judge FROM subq_pairwise ORDER BY ALL`,
  );
}
