/**
 * JSON values kept under a key of the workspace's `meta` table (records such as
 * the figure palette, failed generations, incomplete contexts).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * The JSON value stored under `key`, or undefined when there is none.
 *
 * @example
 * ```ts
 * import { readMetaJson } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readMetaJson<string[]>(ws, "failed_generations:rag-bm25");
 * ```
 */
export async function readMetaJson<T>(ws: WorkspaceLike, key: string): Promise<T | undefined> {
  const rows = await ws.query<{ value: string }>("SELECT value FROM meta WHERE key = $1", [key]);
  return rows.length ? JSON.parse(rows[0].value) as T : undefined;
}

/**
 * Stores `value` as JSON under `key`; undefined removes the key.
 *
 * @example
 * ```ts
 * import { writeMetaJson } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeMetaJson(ws, "my_key", { a: 1 });
 * ```
 */
export async function writeMetaJson(
  ws: WorkspaceLike,
  key: string,
  value: unknown,
): Promise<void> {
  if (value === undefined) await ws.exec("DELETE FROM meta WHERE key = $1", [key]);
  else await ws.exec("INSERT OR REPLACE INTO meta VALUES ($1, $2)", [key, JSON.stringify(value)]);
}
