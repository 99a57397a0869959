/**
 * Opening an experiment workspace: the folder, `workspace.duckdb`, the schema and
 * its version.
 *
 * @module
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import { loadTables } from "./_columns.ts";
import { SCHEMA_VERSION, TABLES } from "./schema.ts";
import { createCallsTable } from "./llm_cache.ts";
import { Workspace } from "./workspace.ts";
import { explainStorageError, WorkspaceStorageError } from "./storage_error.ts";
import { checkWorkspace } from "./check_workspace.ts";
import { DEFAULT_MEMORY_LIMIT } from "./_memory_limit.ts";
import { workspaceDatabaseConfig } from "./database_config.ts";

export { DEFAULT_MEMORY_LIMIT };

/**
 * Opens (creating when needed) the workspace in `dir`: the folder, the
 * `workspace.duckdb` file and every table of `schema.ts`. The schema version is
 * recorded in `meta`; a workspace written by a newer version is refused.
 *
 * DuckDB's memory (its buffer pool, indexes and query state) is capped at
 * `memoryLimit`, from `CRUX_MEMORY_LIMIT` when not given, else
 * {@linkcode DEFAULT_MEMORY_LIMIT}: without a cap DuckDB keeps up to 80% of the
 * machine's memory, so a long judging run (millions of cached calls) grows
 * with the machine rather than with its work. Above the cap DuckDB writes
 * what it can to disk and spills large queries to `workspace.duckdb.tmp`.
 *
 * An existing file is checked first, at the cost of one file size and one
 * query of the database's block count (milliseconds): a file shorter than its
 * blocks (a copy cut short, a disk fault) is examined table by table as `crux
 * workspace check` does, and when tables cannot be read the workspace is
 * refused with that verdict, before any command reads or writes it.
 *
 * @param dir The workspace folder (e.g. `outputs/<experiment>`).
 * @param opts `readOnly` (default false) opens an existing workspace without changing it;
 *   `memoryLimit` caps DuckDB's memory, in DuckDB's notation (`"2GB"`, `"512MiB"`).
 * @returns The open workspace; call `close()` when done.
 * @throws {Deno.errors.NotFound} Read-only on a folder without a workspace.
 * @throws {WorkspaceStorageError} When the file is locked by another process, damaged
 * (cut short: the tables that cannot be read are named), or the disk is full (the
 * message says what to do).
 * @throws {Error} When the workspace's schema version is older or newer.
 * @example
 * ```ts
 * const ws = await openWorkspace(await Deno.makeTempDir()); // e.g. "outputs/<experiment>"
 * console.log(await ws.count("passages"));
 * ws.close();
 * ```
 */
export async function openWorkspace(
  dir: string,
  opts: { readOnly?: boolean; memoryLimit?: string } = {},
): Promise<Workspace> {
  return await open(dir, opts, true);
}

async function open(
  dir: string,
  opts: { readOnly?: boolean; memoryLimit?: string },
  verify: boolean,
): Promise<Workspace> {
  const readOnly = opts.readOnly ?? false;
  // Checked before anything is created: a bad memory limit is a clear error.
  const config = workspaceDatabaseConfig({ readOnly, memoryLimit: opts.memoryLimit });
  const path = join(dir, "workspace.duckdb");
  if (readOnly) {
    await Deno.stat(path).catch(() => {
      throw new Deno.errors.NotFound(
        `Cannot open workspace "${dir}" read-only: it has no workspace.duckdb; create it by importing data first`,
      );
    });
  } else await Deno.mkdir(dir, { recursive: true });
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, config);
  } catch (error) {
    const explained = explainStorageError(error, dir);
    if (explained) throw explained;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot open workspace "${dir}": ${reason}`, { cause: error });
  }
  const connection = await instance.connect();
  try {
    if (verify) {
      // The same verdict as `crux workspace check`: damaged only when tables cannot be read.
      const verdict = await verifyOpenedWorkspace(connection, dir, () => {
        connection.closeSync();
        instance.closeSync();
      });
      if (verdict === "reopen") return await open(dir, opts, false);
    } else {
      const wrong = schemaVersionError(dir, await storedVersion(connection));
      if (wrong) throw wrong;
    }
    if (!readOnly) {
      for (const [table, statement] of Object.entries(TABLES)) {
        if (table === "llm_calls") await createCallsTable(connection);
        else await connection.run(statement);
      }
      await connection.run(
        "INSERT OR REPLACE INTO meta VALUES ('schema_version', $1)",
        [String(SCHEMA_VERSION)],
      );
    }
    return new Workspace(dir, connection, instance, readOnly, await loadTables(connection));
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw explainStorageError(error, dir) ?? error;
  }
}

/**
 * The error for a workspace whose schema version is not this workbench's: an
 * older one points to `crux workspace migrate`, a newer one to an update. A
 * version of 0 (nothing recorded: a new file) is no error.
 *
 * @param dir The workspace folder, for the message.
 * @param version The stored schema version.
 * @returns The error, or undefined when the version is this workbench's or none.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { schemaVersionError } from "@lib/store/open_workspace.ts";
 * assert.match(schemaVersionError("ws", 1)!.message, /crux workspace migrate --workspace ws/);
 * ```
 */
export function schemaVersionError(dir: string, version: number): Error | undefined {
  if (version > 0 && version < SCHEMA_VERSION) {
    return new Error(
      `Cannot open workspace "${dir}": its schema version ${version} is older than this ` +
        `workbench's ${SCHEMA_VERSION} (which records how runs, generations, ratings and qrels ` +
        `were made, keeps every measured value with its judge and source, and one memo of what was computed from what). Run \`crux workspace migrate --workspace ${dir}\` (every row and cached ` +
        "model call is kept), or rebuild the workspace",
    );
  }
  if (version > SCHEMA_VERSION) {
    return new Error(
      `Cannot open workspace "${dir}": its schema version ${version} is newer than this workbench's ${SCHEMA_VERSION}; update the workbench or use a new workspace folder`,
    );
  }
  return undefined;
}

/**
 * Checks an opened workspace database the way {@linkcode openWorkspace} does:
 * its schema version, and whether its file is shorter than its blocks. A short
 * file is examined as `crux workspace check` does, after `close` releases it;
 * the result says whether the caller may go on (reopening when it closed).
 *
 * @param connection A connection to the workspace database.
 * @param dir The workspace folder.
 * @param close Closes the connection and the database, for the examination.
 * @returns `"ok"`, or `"reopen"` when it closed a sound database to examine it.
 * @throws {Error} On an older or newer schema version.
 * @throws {WorkspaceStorageError} When tables cannot be read.
 * @example
 * ```ts
 * import { DuckDBInstance } from "@duckdb/node-api";
 * import { verifyOpenedWorkspace } from "@lib/store/open_workspace.ts";
 * const dir = await Deno.makeTempDir();
 * const db = await DuckDBInstance.create(`${dir}/workspace.duckdb`);
 * const c = await db.connect();
 * await verifyOpenedWorkspace(c, dir, () => (c.closeSync(), db.closeSync()));
 * ```
 */
export async function verifyOpenedWorkspace(
  connection: DuckDBConnection,
  dir: string,
  close: () => void,
): Promise<"ok" | "reopen"> {
  const wrong = schemaVersionError(dir, await storedVersion(connection));
  if (wrong) throw wrong;
  const short = await shortBy(connection, join(dir, "workspace.duckdb"));
  if (!short) return "ok";
  close();
  const report = await checkWorkspace(dir);
  if (report.problems.length) throw damaged(dir, short, report.tables);
  return "reopen";
}

/** How the file falls short of the blocks the database says it holds, if it does. */
async function shortBy(
  connection: DuckDBConnection,
  path: string,
): Promise<{ bytes: number; needed: number; blocks: number } | undefined> {
  const rows = (await connection.runAndReadAll(
    "SELECT block_size, total_blocks FROM pragma_database_size() WHERE database_name = current_database()",
  )).getRowsJS();
  if (rows.length === 0) return undefined;
  const blocks = Number(rows[0][1]);
  // The file header and two database headers, then the blocks.
  const needed = HEADER_BYTES + blocks * Number(rows[0][0]);
  const bytes = (await Deno.stat(path)).size;
  return blocks > 0 && bytes < needed ? { bytes, needed, blocks } : undefined;
}

/** Bytes before a DuckDB file's first block. */
const HEADER_BYTES = 3 * 4096;

function damaged(
  dir: string,
  short: { bytes: number; needed: number; blocks: number },
  tables: readonly { table: string; problem?: string }[],
): WorkspaceStorageError {
  const unreadable = tables.filter((t) => t.problem && t.problem !== "missing").map((t) => t.table);
  const said = `workspace.duckdb holds ${short.bytes} bytes, its ${short.blocks} blocks need ` +
    `${short.needed}`;
  return new WorkspaceStorageError(
    `Workspace "${dir}" is damaged: ${said} (a copy cut short, or a disk fault)` +
      (unreadable.length
        ? `; ${unreadable.length} table(s) cannot be read: ${unreadable.join(", ")}`
        : "") +
      `. Nothing was read or written. \`crux workspace check --workspace ${dir}\` lists every ` +
      "table; restore the folder from a backup, or move it aside and rebuild it with the " +
      "commands that made it (`crux run --config ...` or `crux import ...`), exporting readable " +
      "tables first with `crux export`",
    "damaged",
    said,
  );
}

async function storedVersion(connection: DuckDBConnection): Promise<number> {
  const exists = await connection.runAndReadAll(
    "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND table_name = 'meta'",
  );
  if (exists.currentRowCount === 0) return 0;
  const rows =
    (await connection.runAndReadAll("SELECT value FROM meta WHERE key = 'schema_version'"))
      .getRowsJS();
  return rows.length ? Number(rows[0][0]) : 0;
}
