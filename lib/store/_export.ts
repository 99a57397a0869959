/** Table export to Parquet, CSV, JSONL and TREC files; private to `@lib/store`. */
import type { DuckDBConnection } from "@duckdb/node-api";
import { basename, dirname, join } from "node:path";
import { formatQrels, formatRun, writeAtomic } from "@lib/formats/mod.ts";
import type { Qrel, RunRow } from "@lib/types/mod.ts";
import type { TableInfo } from "./_columns.ts";

/** Export formats: columnar/tabular files, or TREC run/qrels text for `runs`/`qrels`. */
export type ExportFormat = "parquet" | "csv" | "jsonl" | "trec";

/** Options of `exportTable`. */
export interface ExportOptions {
  /** For `trec`: only this run (runs table) or these qrels (qrels table, by name). */
  run?: string;
  name?: string;
}

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Copies a table to a file with camelCase column names, atomically (temp file + rename). */
export async function copyTable(
  connection: DuckDBConnection,
  info: TableInfo,
  path: string,
  format: "parquet" | "csv" | "jsonl",
): Promise<number> {
  const columns = info.columns.map((c) => `"${c.name}" AS "${c.field}"`).join(", ");
  const order =
    (info.primaryKey.length ? info.primaryKey : info.columns.slice(0, 3).map((c) => c.name))
      .map((c) => `"${c}"`).join(", ");
  const options = format === "parquet"
    ? "FORMAT parquet, COMPRESSION zstd"
    : format === "csv"
    ? "FORMAT csv, HEADER true"
    : "FORMAT json";
  const temp = join(dirname(path), `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    const result = await connection.run(
      `COPY (SELECT ${columns} FROM "${info.name}" ORDER BY ${order}) TO ${
        sqlString(temp)
      } (${options})`,
    );
    await Deno.rename(temp, path);
    return result.rowsChanged;
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** Writes runs or qrels as TREC text. */
export async function writeTrec(
  table: string,
  path: string,
  rows: RunRow[] | Qrel[],
): Promise<number> {
  const text = table === "runs" ? formatRun(rows as RunRow[]) : formatQrels(rows as Qrel[]);
  await writeAtomic(path, text);
  return rows.length;
}
