/**
 * Brings a workspace of an older schema version up to the current one, keeping
 * every row (and every cached model call).
 *
 * @module
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import {
  isOlderStorage,
  STORAGE_VERSION,
  storageVersionOf,
  workspaceDatabaseConfig,
} from "./database_config.ts";
import { join } from "node:path";
import { CALLS_ZSTD_KEY, callsNeedZstd } from "./llm_cache.ts";
import { SCHEMA_VERSION, TABLES } from "./schema.ts";
import { RATED_ITEMS_SQL } from "./provenance.ts";
import { fileExists } from "./_file_exists.ts";

/**
 * Migrates `dir/workspace.duckdb` to the current schema version. From version 1:
 * creates the provenance tables and fills them from what the workspace holds:
 * rated items from rating ids, generation runs from `generations` (the context run
 * of a `rag` run named `rag-<run>`), runs and qrels with unknown parameters, judge
 * and tau. Provenance the old workspace never stored stays null (unknown). From
 * versions 1 and 2: the `metrics` table, which recorded values without their judge
 * or relevance source, is kept as `legacy_metrics` and read by nothing; the measure
 * stage (or `crux measure`) stores them again in `measures`. From versions 1 to 3:
 * the three memos (`stage_runs`, the measure step's `measure_inputs` with its
 * `meta` keys `measure_values:[...]`, and the folder's `file_memo.json`) move
 * into the one table `memo` unchanged, so an up-to-date workspace re-runs nothing.
 * From versions 1 to 4: `ratings` and `rated_items` are keyed by topic as well
 * (an item may be rated under several topics); their rows are kept as they are.
 * From versions 1 to 5: the tables of derived statistics and caveats are
 * created empty (the statistics stage fills them), and `measures` gains the
 * column `topic_set`, null on the rows kept (the stages that wrote them state it
 * when they next run); every other row is kept.
 *
 * A file written in an older DuckDB storage format than {@linkcode STORAGE_VERSION}
 * (every workspace created before the workbench chose its format), or whose call
 * cache stores prompts and answers with DuckDB's default string compression
 * rather than ZSTD, is then rewritten: every table is copied with its rows, keys
 * and constraints into a new file in the current format, with the call cache
 * created as the current schema declares it, and the new file replaces the old
 * one only once complete. Checkpoints of a large call cache cost about a quarter
 * as much in the new format, and ZSTD cuts them by about six more.
 *
 * The rewrite of a large workspace takes a while (a cache of 1.5 million calls
 * holds some 3 GB): `onProgress` hears when it starts (with the rows to copy),
 * how many rows and tables are copied every `intervalMs`, when only the
 * writing of the file remains, and when it is done.
 *
 * @param dir The workspace folder.
 * @param opts `onProgress`: told how the storage rewrite goes; `intervalMs`: how
 *   often it is told while rows are copied (default 1,000).
 * @returns The schema version before and after, and the storage formats when the
 *   file was rewritten.
 * @throws {Error} When the folder has no workspace, or its version is newer than this workbench's.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { migrateWorkspace, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir(); // e.g. "outputs/old-experiment": { from: 5, to: 6 }
 * (await openWorkspace(dir)).close();
 * assert.deepEqual(await migrateWorkspace(dir), { from: 6, to: 6 }); // already current
 * ```
 */
export async function migrateWorkspace(
  dir: string,
  opts: MigrateOptions = {},
): Promise<MigrationResult> {
  const path = join(dir, "workspace.duckdb");
  await Deno.stat(path).catch(() => {
    throw new Deno.errors.NotFound(`Cannot migrate "${dir}": it has no workspace.duckdb`);
  });
  const instance = await DuckDBInstance.create(path, workspaceDatabaseConfig());
  const c = await instance.connect();
  let result: MigrationResult;
  let closed = false;
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
    if (from < SCHEMA_VERSION) {
      await migrateSchema(c, dir, from);
      await Deno.remove(join(dir, OLD_FILE_MEMO)).catch(() => {}); // moved into `memo`, or absent
    }
    result = { from, to: SCHEMA_VERSION };
    const storage = await storageVersionOf(c);
    const because: StorageRewrite["because"] = [];
    if (isOlderStorage(storage)) because.push("format");
    if (await callsNeedZstd(c)) because.push("compression");
    if (because.length) {
      await rewriteStorage(c, dir, opts);
      c.closeSync();
      instance.closeSync();
      closed = true;
      if (await fileExists(`${path}.wal`)) {
        await Deno.remove(upgradePath(dir)).catch(() => {});
        throw new Error(
          `Cannot migrate "${dir}": DuckDB left a write-ahead log beside the workspace after ` +
            "closing it, so the copy may miss writes; nothing was replaced. Open the workspace " +
            "once (e.g. `crux workspace check`) and migrate again",
        );
      }
      // The rewritten file replaces the old one in one step: a kill before this
      // leaves the old workspace as it was (and a stray file the next run removes).
      await Deno.rename(upgradePath(dir), path);
      result.storage = { from: storage ?? "unknown", to: `${STORAGE_VERSION}+`, because };
    }
    return result;
  } finally {
    if (!closed) {
      c.closeSync();
      instance.closeSync();
    }
  }
}

/** What {@linkcode migrateWorkspace} did. */
export interface MigrationResult {
  /** Schema version before. */
  from: number;
  /** Schema version after. */
  to: number;
  /** Set when the file was rewritten in the current storage format. */
  storage?: StorageRewrite;
}

/** A rewrite of the workspace file by {@linkcode migrateWorkspace}. */
export interface StorageRewrite {
  /** DuckDB's storage format tag before. */
  from: string;
  /** And after. */
  to: string;
  /**
   * What called for it: an older storage `format`, or a call cache whose prompts
   * and answers were stored with another `compression` than ZSTD.
   */
  because: ("format" | "compression")[];
}

/** Options of {@linkcode migrateWorkspace}. */
export interface MigrateOptions {
  /** Told how a storage rewrite goes (not called when the file needs none). */
  onProgress?: (p: RewriteProgress) => void;
  /** Milliseconds between two reports while rows are copied. Default 1,000. */
  intervalMs?: number;
}

/**
 * How a storage rewrite goes: `start` (the tables to fill are known), `copying`
 * (`tables` tables are copied, and `rowsRead` rows read of all tables together;
 * a table's rows are read before its keys are checked and its copy is complete),
 * `finishing` (every row is copied; the new file is being written) and `done`
 * (the new file is complete; it replaces the old one next).
 */
export interface RewriteProgress {
  phase: "start" | "copying" | "finishing" | "done";
  /** Rows read so far, of all tables together. */
  rowsRead: number;
  /** Rows of all tables together. */
  rowsTotal: number;
  /** Tables copied. */
  tables: number;
  /** Tables to copy. */
  tablesTotal: number;
  /** Milliseconds since the rewrite started. */
  elapsedMs: number;
}

/** The file a storage rewrite writes before it replaces the workspace's. */
function upgradePath(dir: string): string {
  return join(dir, "workspace.duckdb.upgrade");
}

/**
 * Copies every table (rows, keys and constraints) into a new file in the
 * current storage format ({@linkcode STORAGE_VERSION}); the caller closes the
 * old database and moves the new file in place. The tables are created first
 * and then filled one by one, so that progress can be told table by table
 * (DuckDB's own count stalls on a whole-database copy).
 */
async function rewriteStorage(
  c: DuckDBConnection,
  dir: string,
  opts: MigrateOptions,
): Promise<void> {
  const started = performance.now();
  const target = upgradePath(dir);
  for (const stale of [target, `${target}.wal`]) await Deno.remove(stale).catch(() => {});
  const source = quoted(
    String((await c.runAndReadAll("SELECT current_database()")).getRowsJS()[0][0]),
  );
  const tables = await tableRows(c);
  const rowsTotal = tables.reduce((n, t) => n + t.rows, 0);
  const { onProgress } = opts;
  const report = (phase: RewriteProgress["phase"], rowsRead: number, copied: number) =>
    onProgress?.({
      phase,
      rowsRead: Math.min(rowsRead, rowsTotal),
      rowsTotal,
      tables: copied,
      tablesTotal: tables.length,
      elapsedMs: performance.now() - started,
    });
  if (onProgress) {
    // DuckDB counts what a running statement has read only with its progress bar
    // on; it prints nothing with printing off.
    await c.run("SET enable_progress_bar = true");
    await c.run("SET enable_progress_bar_print = false");
  }
  await c.run(
    `ATTACH '${
      target.replaceAll("'", "''")
    }' AS crux_upgrade (STORAGE_VERSION '${STORAGE_VERSION}')`,
  );
  report("start", 0, 0);
  let done = 0; // rows of the tables copied so far
  let copied = 0;
  let current = 0; // rows of the table being copied
  let read = 0;
  // While a table is copied on DuckDB's threads, its read count is polled here.
  // DuckDB counts each pass over the rows apart (the copy, then the key check),
  // so the count told is the most read so far, within the table.
  const poll = onProgress
    ? setInterval(() => {
      const { percentage, rows_processed: rows } = c.progress;
      const now = done + (percentage >= 0 ? Math.min(Number(rows), current) : 0);
      report("copying", read = Math.max(read, now), copied);
    }, opts.intervalMs ?? 1000)
    : undefined;
  try {
    await c.run(`COPY FROM DATABASE ${source} TO crux_upgrade (SCHEMA)`);
    // The call cache as the schema declares it now (its strings' compression).
    const hasCalls = tables.some((t) => t.name === CALLS);
    if (hasCalls) {
      await c.run(`DROP TABLE crux_upgrade.${CALLS}`);
      const create = TABLES.llm_calls.replace(
        "IF NOT EXISTS llm_calls",
        `crux_upgrade.${CALLS}`,
      );
      if (create === TABLES.llm_calls) throw new Error("llm_calls: unexpected table definition");
      await c.run(create);
    }
    for (const t of tables) {
      current = t.rows;
      await c.run(
        `INSERT INTO crux_upgrade.${t.name} BY NAME SELECT * FROM ${source}.${t.name}`,
      );
      done += t.rows;
      copied++;
    }
    clearInterval(poll);
    // The cache was created as the schema declares it: recorded as new ones are.
    if (hasCalls) {
      await c.run("INSERT OR REPLACE INTO crux_upgrade.main.meta VALUES ($1, 'zstd')", [
        CALLS_ZSTD_KEY,
      ]);
    }
    // Every row is in: what remains is writing the new file.
    report("finishing", rowsTotal, copied);
    await c.run("DETACH crux_upgrade");
  } catch (error) {
    clearInterval(poll);
    await c.run("DETACH crux_upgrade").catch(() => {});
    for (const stale of [target, `${target}.wal`]) await Deno.remove(stale).catch(() => {});
    throw error;
  }
  report("done", rowsTotal, copied);
}

/** The call cache's table, as {@linkcode tableRows} names it. */
const CALLS = '"main"."llm_calls"';

/** An SQL identifier in double quotes. */
function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The tables of the connection's current database (`schema.table`, quoted) and their rows. */
async function tableRows(c: DuckDBConnection): Promise<{ name: string; rows: number }[]> {
  const names = (await c.runAndReadAll(
    `SELECT schema_name, table_name FROM duckdb_tables()
       WHERE database_name = current_database() AND NOT temporary
       ORDER BY schema_name, table_name`,
  )).getRowsJS() as string[][];
  const tables: { name: string; rows: number }[] = [];
  for (const [schema, table] of names) {
    const name = `${quoted(schema)}.${quoted(table)}`;
    const rows = (await c.runAndReadAll(`SELECT count(*) FROM ${name}`)).getRowsJS();
    tables.push({ name, rows: Number(rows[0][0]) });
  }
  return tables;
}

/** The schema steps from any older version to the current one, in one transaction. */
async function migrateSchema(c: DuckDBConnection, dir: string, from: number): Promise<void> {
  await c.run("BEGIN TRANSACTION");
  try {
    await moveToMemo(c, dir);
    // Version 5 keyed ratings by topic; a later workspace has them so already.
    if (from < 5) await rekeyRatings(c);
    // Version 6: measures state their topic set; older rows have none (null).
    if (await hasTable(c, "measures")) {
      await c.run("ALTER TABLE measures ADD COLUMN IF NOT EXISTS topic_set VARCHAR");
    }
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
  } catch (error) {
    await c.run("ROLLBACK").catch(() => {});
    throw error;
  }
}

/**
 * Rebuilds `ratings` and `rated_items` with the current keys (versions up to 4
 * keyed them by item and judge without the topic), keeping every row; the
 * current schema's statements create them afterwards when absent.
 */
async function rekeyRatings(c: DuckDBConnection): Promise<void> {
  for (const table of ["ratings", "rated_items"]) {
    if (!await hasTable(c, table)) continue;
    await c.run(`CREATE TEMP TABLE old_${table} AS SELECT * FROM ${table}`);
    await c.run(`DROP TABLE ${table}`);
    await c.run(TABLES[table]);
    await c.run(`INSERT INTO ${table} BY NAME SELECT * FROM old_${table}`);
    await c.run(`DROP TABLE old_${table}`);
  }
}

/** Name of the file memo that schema versions up to 3 kept in the workspace folder. */
const OLD_FILE_MEMO = "file_memo.json";

async function hasTable(c: DuckDBConnection, name: string): Promise<boolean> {
  const rows = (await c.runAndReadAll(
    "SELECT count(*) FROM duckdb_tables() WHERE database_name = current_database() AND table_name = $1",
    [name],
  )).getRowsJS();
  return Number(rows[0][0]) > 0;
}

async function insertMemo(
  c: DuckDBConnection,
  r: { kind: string; key: string; fingerprint: string | null; payload: string | null; at: number },
): Promise<void> {
  await c.run(
    "INSERT OR REPLACE INTO memo VALUES ($1, $2, $3, $4::JSON, epoch_ms($5::BIGINT))",
    [r.kind, r.key, r.fingerprint, r.payload, r.at],
  );
}

/**
 * Moves the memos of schema versions up to 3 into `memo`: `stage_runs` rows as
 * kind `stage`, `measure_inputs` rows with their `meta` summaries as kind
 * `measure`, and `file_memo.json` entries as kind `file`; the old tables and
 * keys are dropped (the file is removed after the transaction commits).
 */
async function moveToMemo(c: DuckDBConnection, dir: string): Promise<void> {
  await c.run(TABLES.memo);
  if (await hasTable(c, "stage_runs")) {
    await c.run(`INSERT OR REPLACE INTO memo
      SELECT 'stage', id, fingerprint,
        json_object('stage', stage, 'params', params, 'summary', summary), finished_at
      FROM stage_runs`);
    await c.run("DROP TABLE stage_runs");
  }
  const measures = new Map<
    string,
    { fingerprint: string | null; payload: string | null; at: number }
  >();
  if (await hasTable(c, "measure_inputs")) {
    const rows = (await c.runAndReadAll(
      "SELECT run, judge, fingerprint, epoch_ms(computed_at) FROM measure_inputs",
    )).getRowsJS();
    for (const [run, judge, fingerprint, at] of rows) {
      measures.set(JSON.stringify([String(run), String(judge)]), {
        fingerprint: fingerprint === null ? null : String(fingerprint),
        payload: null,
        at: Number(at ?? 0),
      });
    }
    await c.run("DROP TABLE measure_inputs");
  }
  const prefix = "measure_values:";
  const summaries = (await c.runAndReadAll(
    "SELECT key, value FROM meta WHERE starts_with(key, $1)",
    [prefix],
  )).getRowsJS();
  for (const [key, value] of summaries) {
    const id = String(key).slice(prefix.length);
    const known = measures.get(id);
    measures.set(id, {
      fingerprint: known?.fingerprint ?? null,
      payload: value === null ? null : String(value),
      at: known?.at ?? Date.now(),
    });
  }
  for (const [key, m] of measures) await insertMemo(c, { kind: "measure", key, ...m });
  await c.run("DELETE FROM meta WHERE starts_with(key, $1)", [prefix]);
  let files: Record<string, { identity?: unknown; value?: unknown }> = {};
  try {
    const parsed = JSON.parse(await Deno.readTextFile(join(dir, OLD_FILE_MEMO)));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) files = parsed;
  } catch {
    // absent or unreadable: it was a cache, its values are computed again once
  }
  for (const [key, entry] of Object.entries(files)) {
    const cut = key.indexOf("\u0000");
    if (cut < 0 || typeof entry?.identity !== "string" || entry.value === undefined) continue;
    await insertMemo(c, {
      kind: "file",
      key: JSON.stringify([key.slice(0, cut), key.slice(cut + 1)]),
      fingerprint: entry.identity,
      payload: JSON.stringify(entry.value),
      at: Date.now(),
    });
  }
}
