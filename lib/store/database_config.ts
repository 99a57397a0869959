/**
 * How DuckDB opens a workspace's database file: memory cap, storage format of
 * new files and checkpoint interval, shared by every place that opens one.
 *
 * @module
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { workspaceMemoryLimit } from "./_memory_limit.ts";

/**
 * Storage format of new workspace files. DuckDB writes new files in its oldest
 * readable format unless told otherwise; in that format every checkpoint
 * converts the whole primary-key index of `llm_calls` back to the old layout,
 * which on a cache of 1.5 million calls costs about 2 s of CPU per checkpoint
 * against 0.5 s in this format. Files in this format open with DuckDB 1.5.0 or
 * later. An existing file keeps the format it was written in until `crux
 * workspace migrate` rewrites it.
 */
export const STORAGE_VERSION = "v1.5.0";

/**
 * Size of DuckDB's write-ahead log that triggers a checkpoint (DuckDB's default
 * is 16 MB, a checkpoint every few seconds of judging at the concurrency bound).
 * Committed writes are durable either way; a larger log only makes reopening
 * after a kill replay more.
 */
export const CHECKPOINT_THRESHOLD = "256MiB";

/**
 * DuckDB's configuration for a workspace file.
 *
 * @param opts `readOnly` opens without writing; `memoryLimit` caps DuckDB's memory
 *   (else `CRUX_MEMORY_LIMIT`, else 2 GB; see `openWorkspace`).
 * @returns Options for `DuckDBInstance.create`.
 * @throws {RangeError} When the memory limit is not a size.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const config = workspaceDatabaseConfig({ memoryLimit: "1GB" });
 * assert.equal(config.memory_limit, "1GB");
 * assert.equal(config.storage_compatibility_version, "v1.5.0");
 * ```
 */
export function workspaceDatabaseConfig(
  opts: { readOnly?: boolean; memoryLimit?: string } = {},
): Record<string, string> {
  return {
    ...(opts.readOnly ? { access_mode: "READ_ONLY" } : {}),
    memory_limit: workspaceMemoryLimit(opts.memoryLimit).value,
    storage_compatibility_version: STORAGE_VERSION,
    checkpoint_threshold: CHECKPOINT_THRESHOLD,
  };
}

/**
 * The storage format of the connection's current database file, as DuckDB
 * reports it (`"v0.10.2+"`, `"v1.5.0+"`), or null when DuckDB does not say.
 *
 * @param connection An open connection.
 * @returns The format's version tag.
 */
export async function storageVersionOf(connection: DuckDBConnection): Promise<string | null> {
  const rows = (await connection.runAndReadAll(
    `SELECT t.value FROM duckdb_databases() d, unnest(map_entries(d.tags)) u(t)
     WHERE d.database_name = current_database() AND t.key = 'storage_version'`,
  )).getRowsJS();
  return rows.length ? String(rows[0][0]) : null;
}

/**
 * Whether a storage version tag (see {@linkcode storageVersionOf}) is older than
 * {@linkcode STORAGE_VERSION}.
 *
 * @param tag A tag such as `"v0.10.2+"`.
 * @returns True when older; false when as new or newer, or not a version.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isOlderStorage("v0.10.2+"), true);
 * assert.equal(isOlderStorage("v1.5.0+"), false);
 * assert.equal(isOlderStorage("v1.10.0"), false);
 * ```
 */
export function isOlderStorage(tag: string | null): boolean {
  const parse = (v: string) => /^v(\d+)\.(\d+)\.(\d+)/.exec(v)?.slice(1).map(Number);
  const have = tag ? parse(tag) : undefined;
  const want = parse(STORAGE_VERSION)!;
  if (!have) return false;
  for (let i = 0; i < 3; i++) if (have[i] !== want[i]) return have[i] < want[i];
  return false;
}
