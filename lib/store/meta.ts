/**
 * Plain keys of the workspace's `meta` table (JSON records are read and written
 * with `readMetaJson` and `writeMetaJson`).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * Deletes every `meta` key that starts with `prefix`.
 *
 * @param ws The workspace.
 * @param prefix The key prefix (not empty).
 * @throws {RangeError} On an empty prefix, which would delete the schema version too.
 * @example
 * ```ts
 * import { deleteMetaPrefix } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await deleteMetaPrefix(ws, 'measure_values:["bm25",');
 * ```
 */
export async function deleteMetaPrefix(ws: WorkspaceLike, prefix: string): Promise<void> {
  if (prefix === "") {
    throw new RangeError("Cannot delete meta keys by an empty prefix: give the keys' prefix");
  }
  await ws.exec("DELETE FROM meta WHERE starts_with(key, $1)", [prefix]);
}

/**
 * The tokenizer recorded for the passages' token counts (`meta` key
 * `tokenizer.passages`), or undefined when none is recorded.
 *
 * @param ws The workspace.
 * @returns The tokenizer name (`llama3.1`, `whitespace`).
 * @example
 * ```ts
 * import { readPassageTokenizer } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readPassageTokenizer(ws); // undefined in a new workspace
 * ```
 */
export async function readPassageTokenizer(ws: WorkspaceLike): Promise<string | undefined> {
  return (await ws.query<{ value: string }>(
    "SELECT value FROM meta WHERE key = 'tokenizer.passages'",
  ))[0]?.value;
}
