/**
 * Clearing retrieval runs the evaluation methods write (the sub-question core
 * variants).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * Deletes every row of one retrieval run from `runs`.
 *
 * @param ws The workspace.
 * @param run The run's name.
 * @returns The number of rows deleted.
 * @example
 * ```ts
 * import { clearRunRows } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await clearRunRows(ws, "subq-core-def");
 * ```
 */
export async function clearRunRows(ws: WorkspaceLike, run: string): Promise<number> {
  return Number(await ws.exec(`DELETE FROM runs WHERE run = $1`, [run]) ?? 0);
}
