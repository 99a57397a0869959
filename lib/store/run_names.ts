/**
 * Names of a workspace's runs: retrieval runs, generated runs with their
 * condition, and what a pipeline stage last ran with.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * The retrieval runs' names, in name order.
 *
 * @param ws The workspace.
 * @returns Run names.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRetrievalRunNames } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * // two retrieval runs (normally written by the retrieve stage)
 * await ws.upsert("runs", ["dense", "bm25"].map((run) => (
 *   { run, topicId: "sample-01", docId: "sample-01:0#0", rank: 1, score: 1 }
 * )));
 * assert.deepEqual(await readRetrievalRunNames(ws), ["bm25", "dense"]);
 * ```
 */
export async function readRetrievalRunNames(ws: WorkspaceLike): Promise<string[]> {
  return (await ws.query<{ run: string }>("SELECT DISTINCT run FROM runs ORDER BY run"))
    .map((r) => r.run);
}

/**
 * The generated runs with the condition their reports carry, in name order.
 *
 * @param ws The workspace.
 * @returns Runs and conditions (null where the reports record none).
 * @example
 * ```ts
 * import { readGeneratedRuns } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readGeneratedRuns(ws); // [{ run: "direct", condition: "direct" }, ...]
 * ```
 */
export async function readGeneratedRuns(
  ws: WorkspaceLike,
): Promise<{ run: string; condition: string | null }[]> {
  return await ws.query<{ run: string; condition: string | null }>(
    "SELECT run, any_value(condition) AS condition FROM generations GROUP BY run ORDER BY run",
  );
}

/**
 * The parameters a pipeline stage instance last completed with (as recorded in
 * the memo, kind `stage`), or undefined when it never ran.
 *
 * @param ws The workspace.
 * @param id The stage instance, e.g. `judge:keypoints/extract`.
 * @returns The parsed parameters.
 * @example
 * ```ts
 * import { readStageParams } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readStageParams(ws, "measure:nuggets");
 * ```
 */
export async function readStageParams(ws: WorkspaceLike, id: string): Promise<unknown> {
  const rows = await ws.query<{ params: string | null }>(
    "SELECT (payload->'params')::VARCHAR AS params FROM memo WHERE kind = 'stage' AND key = $1",
    [id],
  );
  const text = rows[0]?.params;
  return text ? JSON.parse(text) : undefined;
}
