/**
 * Clears of retrieval and generated runs that the pipeline's stages need.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * Deletes a retrieval run's rows of `runs` (its `run_info` record stays).
 *
 * @param ws The workspace.
 * @param run The run.
 * @example
 * ```ts
 * import { clearRunRows } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearRunRows(ws, "bm25");
 * ```
 */
export async function clearRunRows(ws: WorkspaceLike, run: string): Promise<void> {
  await ws.exec("DELETE FROM runs WHERE run = $1", [run]);
}

/**
 * Deletes everything stored for the named runs: their reports (`generations`),
 * ranked rows (`runs`) and both provenance records (`generation_info`, `run_info`).
 *
 * @param ws The workspace.
 * @param runs The runs.
 * @example
 * ```ts
 * import { clearRunsEverywhere } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearRunsEverywhere(ws, ["subq-core-5"]);
 * ```
 */
export async function clearRunsEverywhere(
  ws: WorkspaceLike,
  runs: readonly string[],
): Promise<void> {
  for (const t of ["generations", "runs", "generation_info", "run_info"]) {
    await ws.exec(`DELETE FROM ${t} WHERE list_contains($1::JSON::VARCHAR[], run)`, [
      JSON.stringify(runs),
    ]);
  }
}
