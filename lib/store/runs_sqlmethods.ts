/**
 * Replacing retrieval runs the evaluation methods write (the sub-question core
 * variants).
 *
 * @module
 */
import type { RunRow } from "@lib/types/mod.ts";
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * Replaces every row of one retrieval run in `runs` with `rows` (an empty list
 * leaves the run without rows).
 *
 * @param ws The workspace.
 * @param run The run's name.
 * @param rows Its new rows (each with `run` = `run`).
 * @returns The number of old rows deleted.
 * @example
 * ```ts
 * import { replaceRunRows } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await replaceRunRows(ws, "subq-core-def", [{ run: "subq-core-def", topicId: "t1", docId: "d1#1", rank: 1, score: 1 }]);
 * ```
 */
export async function replaceRunRows(
  ws: WorkspaceLike,
  run: string,
  rows: readonly RunRow[],
): Promise<number> {
  const deleted = Number(await ws.exec(`DELETE FROM runs WHERE run = $1`, [run]) ?? 0);
  if (rows.length) await ws.upsert("runs", rows);
  return deleted;
}
