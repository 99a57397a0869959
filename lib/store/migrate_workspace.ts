/**
 * Brings a workspace of an older schema version up to the current one, keeping
 * every row (and every cached model call).
 *
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import { SCHEMA_VERSION, TABLES } from "./schema.ts";
import { RATED_ITEMS_SQL } from "./provenance.ts";

/**
 * Migrates `dir/workspace.duckdb` to the current schema version. From version 1:
 * creates the provenance tables and fills them from what the workspace holds:
 * rated items from rating ids, generation runs from `generations` (the context run
 * of a `rag` run named `rag-<run>`), runs and qrels with unknown parameters, judge
 * and tau. Provenance the old workspace never stored stays null (unknown). From
 * versions 1 and 2: the `metrics` table, which recorded values without their judge
 * or relevance source, is kept as `legacy_metrics` and read by nothing; the measure
 * stage (or `crux measure`) stores them again in `measures`.
 *
 * @param dir The workspace folder.
 * @returns The version before and after.
 * @throws {Error} When the folder has no workspace, or its version is newer than this workbench's.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { migrateWorkspace, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir(); // e.g. "outputs/old-experiment": { from: 1, to: 3 }
 * (await openWorkspace(dir)).close();
 * assert.deepEqual(await migrateWorkspace(dir), { from: 3, to: 3 }); // already current
 * ```
 */
export async function migrateWorkspace(dir: string): Promise<{ from: number; to: number }> {
  const path = join(dir, "workspace.duckdb");
  await Deno.stat(path).catch(() => {
    throw new Deno.errors.NotFound(`Cannot migrate "${dir}": it has no workspace.duckdb`);
  });
  const instance = await DuckDBInstance.create(path);
  const c = await instance.connect();
  try {
    const rows = (await c.runAndReadAll(
      "SELECT value FROM meta WHERE key = 'schema_version'",
    )).getRowsJS();
    const from = rows.length ? Number(rows[0][0]) : 0;
    if (from > SCHEMA_VERSION) {
      throw new Error(
        `Cannot migrate "${dir}": its schema version ${from} is newer than this workbench's ${SCHEMA_VERSION}`,
      );
    }
    if (from === SCHEMA_VERSION) return { from, to: from };
    await c.run("BEGIN TRANSACTION");
    for (const statement of Object.values(TABLES)) await c.run(statement);
    await c.run(RATED_ITEMS_SQL);
    await c.run(`INSERT OR IGNORE INTO generation_info
      SELECT run, any_value(condition),
        CASE WHEN any_value(condition) = 'rag' AND starts_with(run, 'rag-') THEN substr(run, 5) END,
        any_value(backend), now()
      FROM generations GROUP BY run`);
    await c.run(`INSERT OR IGNORE INTO run_info
      SELECT DISTINCT run, NULL, NULL, NULL, now() FROM runs`);
    await c.run(`INSERT OR IGNORE INTO qrels_info
      SELECT DISTINCT name, NULL, NULL, NULL, NULL, now() FROM qrels`);
    // Version 3 keeps every measured value in `measures` (keyed by judge and source);
    // the old `metrics` table (no judge, no source) is kept, renamed, and read by nothing.
    const legacy = (await c.runAndReadAll(
      "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'metrics'",
    )).getRowsJS();
    if (Number(legacy[0][0]) > 0) await c.run("ALTER TABLE metrics RENAME TO legacy_metrics");
    await c.run("INSERT OR REPLACE INTO meta VALUES ('schema_version', $1)", [
      String(SCHEMA_VERSION),
    ]);
    await c.run("COMMIT");
    return { from, to: SCHEMA_VERSION };
  } catch (error) {
    await c.run("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}
