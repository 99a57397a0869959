// Opens a workspace's call cache with its answer journal, folding journal lines into DuckDB.

import { DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import { CallCache } from "./call_cache.ts";
import { workspaceDatabaseConfig } from "@lib/store/database_config.ts";
import { verifyOpenedWorkspace } from "@lib/store/open_workspace.ts";

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
 * @param dir Workspace folder (created if missing, unless `create` is false).
 * @param opts `create`: false for commands that only read, so a mistyped folder is an
 *   error instead of a new empty workspace (default true).
 * @returns The cache and a `close` function.
 * @throws {Error} When the database cannot be opened (e.g. another process holds its lock),
 *   or its schema version is older (pointing to `crux workspace migrate`) or newer.
 * @throws {WorkspaceStorageError} When the file is cut short and tables cannot be read.
 * @throws {Deno.errors.NotFound} With `create: false`, when the workspace does not exist.
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
export async function openCallCache(
  dir: string,
  opts: { create?: boolean } = {},
): Promise<OpenedCallCache> {
  const path = join(dir, "workspace.duckdb");
  if (opts.create === false) {
    try {
      await Deno.stat(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      throw new Deno.errors.NotFound(
        `Cannot open workspace "${dir}": it has no workspace.duckdb; check --workspace ` +
          "(nothing was created)",
      );
    }
  }
  await Deno.mkdir(dir, { recursive: true });
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, workspaceDatabaseConfig());
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot open workspace database "${path}": ${why}`);
  }
  let connection = await instance.connect();
  // The checks of every workspace opener: schema version, a file cut short.
  try {
    const verdict = await verifyOpenedWorkspace(connection, dir, () => {
      connection.closeSync();
      instance.closeSync();
    });
    if (verdict === "reopen") {
      instance = await DuckDBInstance.create(path, workspaceDatabaseConfig());
      connection = await instance.connect();
    }
  } catch (error) {
    try {
      connection.closeSync();
      instance.closeSync();
    } catch { /* closed for the examination already */ }
    throw error;
  }
  const cache = await CallCache.open(connection, { journal: join(dir, JOURNAL_FILE) });
  return {
    cache,
    path,
    async close() {
      await cache.flush();
      cache.release();
      connection.closeSync();
      instance.closeSync();
    },
  };
}
