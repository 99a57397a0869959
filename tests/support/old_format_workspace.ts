/**
 * A copy of a workspace written in an older DuckDB storage format, as
 * workspaces created before the workbench chose its format are, for tests of
 * `crux workspace check` and `crux workspace migrate`.
 *
 * @module
 */
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";

/** The copy, with the rows (DuckDB's estimate) and tables it holds. */
export interface OldFormatCopy {
  dir: string;
  rows: number;
  tables: number;
}

/**
 * Copies every table of `source/workspace.duckdb` into a new folder's
 * `workspace.duckdb` written in storage format `version`.
 *
 * @param source The workspace folder to copy (closed).
 * @param version DuckDB's storage version of the copy. Default `v1.0.0`, what
 *   DuckDB writes when not told otherwise.
 * @returns The new folder and what it holds.
 */
export async function oldFormatCopy(source: string, version = "v1.0.0"): Promise<OldFormatCopy> {
  const dir = await Deno.makeTempDir();
  const db = await DuckDBInstance.create(":memory:");
  const c = await db.connect();
  try {
    await c.run(`ATTACH '${join(source, "workspace.duckdb")}' AS s (READ_ONLY)`);
    await c.run(`ATTACH '${join(dir, "workspace.duckdb")}' AS o (STORAGE_VERSION '${version}')`);
    await c.run("COPY FROM DATABASE s TO o");
    const [[rows, tables]] = (await c.runAndReadAll(
      `SELECT sum(estimated_size)::INTEGER, count(*)::INTEGER FROM duckdb_tables()
         WHERE database_name = 'o'`,
    )).getRowsJS();
    return { dir, rows: Number(rows), tables: Number(tables) };
  } finally {
    c.closeSync();
    db.closeSync();
  }
}
