/**
 * Reads of the generation table `generations` for judging reports.
 *
 * @module
 */
import type { Generation } from "@lib/types/mod.ts";
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * The stored reports (every generation run, or one), ordered by run and topic,
 * with their condition, backend, context passage ids and token count.
 *
 * @param ws The workspace.
 * @param run Only this generation run. Default: every run.
 * @returns The generations, by run then topic.
 * @example
 * ```ts
 * import { readGenerationsByRun } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * (await readGenerationsByRun(ws, "rag-bm25")).length;
 * ```
 */
export async function readGenerationsByRun(
  ws: WorkspaceLike,
  run?: string,
): Promise<Generation[]> {
  return await ws.query<Generation>(
    `SELECT run, topic_id AS "topicId", text, condition, backend, context_ids AS "contextIds", tokens
     FROM generations ${run === undefined ? "" : "WHERE run = $1"} ORDER BY run, topic_id`,
    run === undefined ? [] : [run],
  );
}
