/**
 * A read-only health check of a workspace folder: can its database be opened,
 * does every table read to the end, is its schema version this workbench's, and
 * is its answer journal readable.
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
import { callsNeedZstd } from "./llm_cache.ts";
import { SCHEMA_VERSION, TABLES } from "./schema.ts";
import { explainStorageError } from "./storage_error.ts";
import { fileExists } from "./_file_exists.ts";

/** One table's result in a {@linkcode WorkspaceCheck}. */
export interface TableCheck {
  /** Table name. */
  table: string;
  /** Rows read (undefined when the table could not be read or is missing). */
  rows?: number;
  /** What went wrong, when something did. */
  problem?: string;
}

/** The result of {@linkcode checkWorkspace}. */
export interface WorkspaceCheck {
  /** The folder checked. */
  dir: string;
  /** Size of `workspace.duckdb` in bytes (undefined when missing). */
  bytes?: number;
  /** Whether the database opened read-only. */
  opened: boolean;
  /** Stored schema version (0 when none is recorded). */
  schemaVersion?: number;
  /** DuckDB's storage format of the file (e.g. `"v1.5.0+"`), when it opened and says. */
  storageVersion?: string;
  /** Every table of the schema, in schema order. */
  tables: TableCheck[];
  /** Whether a write-ahead log file is present (an unfinished or unclean last write). */
  wal: boolean;
  /** Lines of the answer journal that parse, and lines that do not. */
  journal: { lines: number; unreadable: number };
  /** Problems found, each a sentence; empty when the workspace is healthy. */
  problems: string[];
  /** Observations that are not problems (a WAL file, a torn journal line). */
  notes: string[];
}

/**
 * Checks a workspace without changing it: opens `workspace.duckdb` read-only,
 * reads every row of every table of the schema (hashing each row, so every
 * column's data is read), compares the schema version and reads the answer
 * journal. Works on a workspace that a writer holds open only when the
 * database engine allows a second reader; a lock is reported as a problem.
 *
 * @param dir The workspace folder.
 * @returns What was found; `problems` is empty for a healthy workspace.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkWorkspace, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * (await openWorkspace(dir)).close();
 * const report = await checkWorkspace(dir);
 * assert.equal(report.problems.length, 0); // a new workspace is sound
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function checkWorkspace(dir: string): Promise<WorkspaceCheck> {
  const path = join(dir, "workspace.duckdb");
  const result: WorkspaceCheck = {
    dir,
    opened: false,
    tables: [],
    wal: await fileExists(path + ".wal"),
    journal: await journalLines(join(dir, "llm_journal.jsonl")),
    problems: [],
    notes: [],
  };
  try {
    result.bytes = (await Deno.stat(path)).size;
  } catch {
    result.problems.push(`${path} does not exist: this folder holds no workspace`);
    return result;
  }
  if (result.wal) {
    result.notes.push(
      "a write-ahead log (workspace.duckdb.wal) is present: the last writer did not close the " +
        "workspace (killed, or still running); its committed writes are replayed on the next open",
    );
  }
  if (result.journal.unreadable > 0) {
    result.notes.push(
      `${result.journal.unreadable} line(s) of llm_journal.jsonl are not answers (a line torn by ` +
        "a killed process); they are skipped, and those calls are made again when needed",
    );
  }
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, workspaceDatabaseConfig({ readOnly: true }));
  } catch (error) {
    result.problems.push(message(error, dir));
    return result;
  }
  const connection = await instance.connect();
  try {
    result.opened = true;
    result.schemaVersion = await schemaVersion(connection);
    result.storageVersion = (await storageVersionOf(connection)) ?? undefined;
    if (isOlderStorage(result.storageVersion ?? null)) {
      result.notes.push(
        `the file is in DuckDB's older storage format ${result.storageVersion}, whose ` +
          "checkpoints of a large call cache cost about four times as much: " +
          `\`crux workspace migrate --workspace ${dir}\` rewrites it in ${STORAGE_VERSION}`,
      );
    }
    if (await callsNeedZstd(connection).catch(() => false)) {
      result.notes.push(
        "the call cache stores its prompts and answers with DuckDB's default string " +
          "compression, whose checkpoints cost about six times the CPU of ZSTD and whose " +
          `files are larger: \`crux workspace migrate --workspace ${dir}\` rewrites it with ZSTD`,
      );
    }
    if (result.schemaVersion !== SCHEMA_VERSION) {
      result.problems.push(
        result.schemaVersion < SCHEMA_VERSION
          ? `schema version ${result.schemaVersion} is older than this workbench's ` +
            `${SCHEMA_VERSION}: run \`crux workspace migrate --workspace ${dir}\``
          : `schema version ${result.schemaVersion} is newer than this workbench's ` +
            `${SCHEMA_VERSION}: update the workbench`,
      );
    }
    const present = new Set(
      (await connection.runAndReadAll(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()",
      )).getRowsJS().map((r) => String(r[0])),
    );
    for (const table of Object.keys(TABLES)) {
      if (!present.has(table)) {
        result.tables.push({ table, problem: "missing" });
        continue;
      }
      try {
        const rows = (await connection.runAndReadAll(
          `SELECT count(*), sum(hash(t)) FROM "${table}" AS t`,
        )).getRowsJS();
        result.tables.push({ table, rows: Number(rows[0][0]) });
      } catch (error) {
        result.tables.push({ table, problem: message(error, dir) });
      }
    }
    const missing = result.tables.filter((t) => t.problem === "missing").map((t) => t.table);
    if (missing.length && result.schemaVersion === SCHEMA_VERSION) {
      result.problems.push(`table(s) ${missing.join(", ")} missing`);
    }
    for (const t of result.tables) {
      if (t.problem && t.problem !== "missing") {
        result.problems.push(`table ${t.table} cannot be read: ${t.problem}`);
      }
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return result;
}

function message(error: unknown, dir: string): string {
  const explained = explainStorageError(error, dir);
  if (explained) return explained.message;
  return error instanceof Error ? error.message : String(error);
}

async function schemaVersion(connection: DuckDBConnection): Promise<number> {
  const meta = await connection.runAndReadAll(
    "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND table_name = 'meta'",
  );
  if (meta.currentRowCount === 0) return 0;
  const rows = (await connection.runAndReadAll(
    "SELECT value FROM meta WHERE key = 'schema_version'",
  )).getRowsJS();
  return rows.length ? Number(rows[0][0]) : 0;
}

async function journalLines(path: string): Promise<{ lines: number; unreadable: number }> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return { lines: 0, unreadable: 0 };
  }
  let lines = 0;
  let unreadable = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      JSON.parse(line);
      lines++;
    } catch {
      unreadable++;
    }
  }
  return { lines, unreadable };
}
