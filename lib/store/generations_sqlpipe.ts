/**
 * Reads and clears of generated reports that the pipeline's stages need.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * Deletes a generated run's reports (its `generation_info` record stays).
 *
 * @param ws The workspace.
 * @param run The generated run.
 * @example
 * ```ts
 * import { clearGenerations } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearGenerations(ws, "rag-bm25");
 * ```
 */
export async function clearGenerations(ws: WorkspaceLike, run: string): Promise<void> {
  await ws.exec("DELETE FROM generations WHERE run = $1", [run]);
}

/** One report of a run as {@linkcode readRunReports} returns it. */
export interface RunReport {
  topicId: string;
  /** The text (null where none was stored). */
  text: string | null;
  /** Passage ids of its context (null for runs without one). */
  contextIds: string[] | null;
}

/**
 * A generated run's reports in topic order: text and context passage ids.
 *
 * @param ws The workspace.
 * @param run The generated run.
 * @returns The reports.
 * @example
 * ```ts
 * import { readRunReports } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readRunReports(ws, "rag-bm25");
 * ```
 */
export async function readRunReports(ws: WorkspaceLike, run: string): Promise<RunReport[]> {
  return await ws.query<RunReport>(
    "SELECT topic_id, text, context_ids FROM generations WHERE run = $1 ORDER BY topic_id",
    [run],
  );
}
