/**
 * The `runs` table (ranked passages per run and topic): counts, replacement
 * and clears beyond the workspace's own `runRows`.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";
import type { Workspace } from "./workspace.ts";
import type { RunRow } from "@lib/types/mod.ts";

/**
 * The number of rows a run has in the workspace (0 when it is not stored).
 *
 * @param ws The workspace.
 * @param run Run name.
 * @returns Its row count.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countRunRows, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * assert.equal(await countRunRows(ws, "bm25"), 0);
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
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
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

/**
 * Writes rows of `runs`, replacing the rows of every run the rows name (the
 * workspace's upsert rule for `runs`, which has no key).
 *
 * @param ws The workspace.
 * @param rows The rows.
 * @example
 * ```ts
 * import { writeRunRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeRunRows(ws, [{ run: "mine", topicId: "t1", docId: "d1#1", rank: 1, score: 1 }]);
 * ```
 */
export async function writeRunRows(ws: WorkspaceLike, rows: readonly RunRow[]): Promise<void> {
  if (rows.length) await ws.upsert("runs", rows);
}

/**
 * Appends rows to `runs`, leaving the rows already stored (for a run whose
 * old rows were cleared before it was computed).
 *
 * @param ws The workspace.
 * @param rows The rows.
 * @example
 * ```ts
 * import { appendRunRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await appendRunRows(ws, [{ run: "mine", topicId: "t1", docId: "d1#1", rank: 1, score: 1 }]);
 * ```
 */
export async function appendRunRows(ws: Workspace, rows: readonly RunRow[]): Promise<void> {
  if (rows.length) await ws.insert("runs", rows);
}
