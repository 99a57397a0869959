/**
 * Raw text values of the workspace's `meta` table, for callers that check the
 * value themselves (and say how to remove a bad one).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * The text stored under a `meta` key.
 *
 * @param ws The workspace.
 * @param key The key.
 * @returns The value, or undefined when the key is absent.
 * @example
 * ```ts
 * import { readMetaText } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
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
 * import { metaKeyRemoval } from "@lib/store/mod.ts";
 * metaKeyRemoval("figure_palette"); // "DELETE FROM meta WHERE key = 'figure_palette'"
 * ```
 */
export function metaKeyRemoval(key: string): string {
  return `DELETE FROM meta WHERE key = '${key.replaceAll("'", "''")}'`;
}
