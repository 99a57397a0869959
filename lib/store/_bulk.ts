/** Bulk inserts through DuckDB's appender; private to `@lib/store`. */
import type { DuckDBConnection } from "@duckdb/node-api";
import { appendValue, type TableInfo } from "./_columns.ts";

/** Checks every record only has fields of the table and has its key fields. */
function check(info: TableInfo, records: readonly object[]): void {
  const fields = new Set(info.columns.map((c) => c.field));
  const keys = info.columns.filter((c) => info.primaryKey.includes(c.name));
  records.forEach((record, i) => {
    for (const k of Object.keys(record)) {
      if (!fields.has(k)) {
        throw new TypeError(
          `Cannot store record ${i} in table "${info.name}": unknown field "${k}"; fields are ${
            [...fields].join(", ")
          }`,
        );
      }
    }
    for (const c of keys) {
      const v = (record as Record<string, unknown>)[c.field];
      if (v === undefined || v === null) {
        throw new TypeError(
          `Cannot store record ${i} in table "${info.name}": key field "${c.field}" is missing`,
        );
      }
    }
  });
}

async function append(
  connection: DuckDBConnection,
  info: TableInfo,
  target: { table: string; catalog?: string },
  records: readonly object[],
): Promise<void> {
  const appender = await connection.createAppender(target.table, "main", target.catalog ?? null);
  try {
    for (let i = 0; i < records.length; i++) {
      const record = records[i] as Record<string, unknown>;
      for (const column of info.columns) {
        appendValue(appender, info.name, column, record[column.field], i);
      }
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    try {
      appender.closeSync();
    } catch {
      // Closing flushes again; the first error is the one to report.
    }
  }
}

/** Inserts records (camelCase) into a table; fails on a duplicate key. */
export async function insertRecords(
  connection: DuckDBConnection,
  info: TableInfo,
  records: readonly object[],
): Promise<number> {
  if (records.length === 0) return 0;
  check(info, records);
  await append(connection, info, { table: info.name }, records);
  return records.length;
}

/**
 * Inserts records, replacing rows with the same primary key (the last record wins
 * among duplicates). A table without a key (runs) gets the rows of every run named
 * in `records` replaced. Returns the number of rows stored.
 */
export function upsertRecords(
  connection: DuckDBConnection,
  info: TableInfo,
  records: readonly object[],
  merge?: <T>(statements: () => Promise<T>) => Promise<T>,
): Promise<number> {
  return upsertBatches(connection, info, [records], undefined, merge);
}

let stages = 0;

/**
 * Upserts batches of records with one merge at the end: every batch is appended to
 * a staging table of its own name (temporary, so private to `connection`), then the
 * replaced rows are deleted and the staged rows inserted by `merge`, which runs the
 * two statements it is given as one unit (the caller wraps them in one transaction,
 * queued behind the other writers). `onBatch` gets the records staged so far; the
 * result is the rows stored (records repeating a key count once).
 */
export async function upsertBatches(
  connection: DuckDBConnection,
  info: TableInfo,
  batches: AsyncIterable<readonly object[]> | Iterable<readonly object[]>,
  onBatch?: (rows: number) => void,
  merge: <T>(statements: () => Promise<T>) => Promise<T> = (statements) => statements(),
): Promise<number> {
  const q = (name: string) => `"${name}"`;
  const stage = `_stage_${info.name}_${++stages}`;
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE ${q(stage)} AS SELECT * FROM ${q(info.name)} LIMIT 0`,
  );
  try {
    let total = 0;
    for await (const records of batches) {
      if (records.length === 0) continue;
      check(info, records);
      await append(connection, info, { table: stage, catalog: "temp" }, records);
      total += records.length;
      onBatch?.(total);
    }
    if (total === 0) return 0;
    const staged = `temp.${q(stage)}`;
    if (info.primaryKey.length === 0) {
      return await merge(async () => {
        if (info.columns.some((c) => c.name === "run")) {
          await connection.run(
            `DELETE FROM ${q(info.name)} WHERE run IN (SELECT DISTINCT run FROM ${staged})`,
          );
        }
        const inserted = await connection.run(
          `INSERT INTO ${q(info.name)} SELECT * FROM ${staged} ORDER BY rowid`,
        );
        return inserted.rowsChanged;
      });
    }
    // Delete the rows being replaced, then insert plainly: much faster in DuckDB than
    // INSERT OR REPLACE, which checks the rows against the index one by one.
    const key = info.primaryKey.map(q).join(", ");
    const match = info.primaryKey.map((k) => `t.${q(k)} = s.${q(k)}`).join(" AND ");
    return await merge(async () => {
      await connection.run(
        `DELETE FROM ${q(info.name)} t WHERE EXISTS (SELECT 1 FROM ${staged} s WHERE ${match})`,
      );
      const inserted = await connection.run(
        `INSERT INTO ${q(info.name)} SELECT * FROM ${staged}
         QUALIFY row_number() OVER (PARTITION BY ${key} ORDER BY rowid DESC) = 1`,
      );
      return inserted.rowsChanged;
    });
  } finally {
    await connection.run(`DROP TABLE IF EXISTS temp.${q(stage)}`).catch(() => {});
  }
}
