/**
 * Reads of the `runs` table (ranked passages per run and topic) beyond the
 * workspace's own `runRows`.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * The number of rows a run has in the workspace (0 when it is not stored).
 *
 * @param ws The workspace.
 * @param run Run name.
 * @returns Its row count.
 * @example
 * ```ts
 * import { countRunRows, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await countRunRows(ws, "bm25"); // 0
 * ws.close();
 * ```
 */
export async function countRunRows(ws: WorkspaceLike, run: string): Promise<number> {
  const [row] = await ws.query<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM runs WHERE run = $1`,
    [run],
  );
  return row?.n ?? 0;
}
