/**
 * Reads of the `generations` table (generated reports and the human reference
 * summaries, run `oracle-result`) beyond the typed record readers.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * Topics for which a run has a stored report.
 *
 * @param ws The workspace.
 * @param run The generation run (e.g. `rag-bm25`, `oracle-result`).
 * @returns The topic ids, in no particular order.
 * @example
 * ```ts
 * import { readGeneratedTopics } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const done = new Set(await readGeneratedTopics(ws, "rag-bm25"));
 * ```
 */
export async function readGeneratedTopics(ws: WorkspaceLike, run: string): Promise<string[]> {
  return (await ws.query<{ topicId: string }>(
    `SELECT topic_id AS "topicId" FROM generations WHERE run = $1`,
    [run],
  )).map((r) => r.topicId);
}

/**
 * Runs whose every report is empty or white space only.
 *
 * @param ws The workspace.
 * @returns The run names, in name order.
 * @example
 * ```ts
 * import { readEmptyGenerationRuns } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const empty = await readEmptyGenerationRuns(ws); // e.g. ["direct"]
 * ```
 */
export async function readEmptyGenerationRuns(ws: WorkspaceLike): Promise<string[]> {
  return (await ws.query<{ run: string }>(
    `SELECT run FROM generations GROUP BY run
     HAVING bool_and(coalesce(trim(text), '') = '') ORDER BY run`,
  )).map((e) => e.run);
}

/** The lengths of one stored report. */
export interface GenerationLength {
  run: string;
  topicId: string;
  /** Tokens of the report; null when not counted. */
  response: number | null;
  /**
   * Tokens of the passages of its context (the stored `context_ids` found in
   * `passages`); null when it has no context or none of its passages is stored.
   */
  input: number | null;
}

/**
 * The response and input length of every stored report.
 *
 * @param ws The workspace.
 * @returns One row per report, in no particular order.
 * @example
 * ```ts
 * import { readGenerationLengths } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const long = (await readGenerationLengths(ws)).filter((l) => (l.input ?? 0) > 1000);
 * ```
 */
export async function readGenerationLengths(ws: WorkspaceLike): Promise<GenerationLength[]> {
  return await ws.query<GenerationLength>(
    `SELECT g.run, g.topic_id, g.tokens AS response,
       (SELECT sum(p.tokens) FROM passages p WHERE list_contains(g.context_ids, p.passage_id))::INT AS input
     FROM generations g`,
  );
}
