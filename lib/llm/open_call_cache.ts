import { DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import { CallCache } from "./call_cache.ts";

/** Name of the answer journal beside a workspace's database. */
export const JOURNAL_FILE = "llm_journal.jsonl";

/** A call cache on a workspace folder's database, with the means to close it. */
export interface OpenedCallCache {
  cache: CallCache;
  /** Path of the database file. */
  path: string;
  /** Waits for pending writes, then closes the connection and the database. */
  close(): Promise<void>;
}

/**
 * Opens (creating if needed) `dir/workspace.duckdb` and the `llm_calls` cache in
 * it, with the answer journal `dir/llm_journal.jsonl` (answers a killed run left
 * there are committed first). For code that has a workspace already, use
 * `CallCache.open(workspace.connection)` instead.
 *
 * @param dir Workspace folder (created if missing).
 * @returns The cache and a `close` function.
 * @throws {Error} When the database cannot be opened (e.g. another process holds its lock).
 * @example
 * ```ts
 * import { openCallCache } from "@lib/llm/mod.ts";
 * const dir = await Deno.makeTempDir(); // e.g. "outputs/<experiment>"
 * const { cache, close } = await openCallCache(dir);
 * try {
 *   console.log(await cache.stats());
 * } finally {
 *   await close();
 * }
 * ```
 */
export async function openCallCache(dir: string): Promise<OpenedCallCache> {
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, "workspace.duckdb");
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot open workspace database "${path}": ${why}`);
  }
  const connection = await instance.connect();
  const cache = await CallCache.open(connection, { journal: join(dir, JOURNAL_FILE) });
  return {
    cache,
    path,
    async close() {
      await cache.flush();
      connection.closeSync();
      instance.closeSync();
    },
  };
}
