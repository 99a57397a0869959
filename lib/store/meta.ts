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
 * import assert from "node:assert/strict";
 * import { readPassageTokenizer } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * assert.equal(await readPassageTokenizer(ws), undefined); // in a new workspace
 * ```
 */
export async function readPassageTokenizer(ws: WorkspaceLike): Promise<string | undefined> {
  return (await ws.query<{ value: string }>(
    "SELECT value FROM meta WHERE key = 'tokenizer.passages'",
  ))[0]?.value;
}

/**
 * The text stored under a `meta` key.
 *
 * @param ws The workspace.
 * @param key The key.
 * @returns The value, or undefined when the key is absent.
 * @example
 * ```ts
 * import { readMetaText } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const text = await readMetaText(ws, "figure_palette");
 * ```
 */
export async function readMetaText(ws: WorkspaceLike, key: string): Promise<string | undefined> {
  const rows = await ws.query<{ value: string }>("SELECT value FROM meta WHERE key = ?", [key]);
  return rows.length ? rows[0].value : undefined;
}

/**
 * The statement that removes a `meta` key, for messages telling the user how to
 * reset a bad value (e.g. in `duckdb workspace.duckdb`).
 *
 * @param key The key.
 * @returns The SQL statement.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { metaKeyRemoval } from "@lib/store/mod.ts";
 * assert.equal(metaKeyRemoval("figure_palette"), "DELETE FROM meta WHERE key = 'figure_palette'");
 * ```
 */
export function metaKeyRemoval(key: string): string {
  return `DELETE FROM meta WHERE key = '${key.replaceAll("'", "''")}'`;
}
