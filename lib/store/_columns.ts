/**
 * The one place where camelCase record fields meet snake_case columns, and where JS
 * values are turned into DuckDB values and back; private to `@lib/store`.
 */
import type { DuckDBAppender, DuckDBConnection, DuckDBResultReader } from "@duckdb/node-api";
import { LIST, timestampValue, VARCHAR } from "@duckdb/node-api";

/** `topic_id` -> `topicId`. */
export function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `topicId` -> `topic_id`. */
export function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
}

/** A column of a workspace table. */
export interface Column {
  name: string;
  field: string;
  type: string;
}

/** A workspace table's columns and primary key. */
export interface TableInfo {
  name: string;
  columns: Column[];
  primaryKey: string[];
}

/** Reads the columns and primary keys of the workspace's tables from DuckDB's catalog. */
export async function loadTables(connection: DuckDBConnection): Promise<Map<string, TableInfo>> {
  const tables = new Map<string, TableInfo>();
  const cols = await connection.runAndReadAll(
    `SELECT table_name, column_name, data_type FROM duckdb_columns()
     WHERE database_name = current_database() AND schema_name = 'main'
     ORDER BY table_name, column_index`,
  );
  for (const r of cols.getRowObjectsJS()) {
    const name = String(r.table_name);
    const info = tables.get(name) ?? { name, columns: [], primaryKey: [] };
    const column = String(r.column_name);
    info.columns.push({ name: column, field: camel(column), type: String(r.data_type) });
    tables.set(name, info);
  }
  const keys = await connection.runAndReadAll(
    `SELECT table_name, constraint_column_names FROM duckdb_constraints()
     WHERE database_name = current_database() AND schema_name = 'main'
       AND constraint_type = 'PRIMARY KEY'`,
  );
  for (const r of keys.getRowObjectsJS()) {
    const info = tables.get(String(r.table_name));
    if (info) info.primaryKey = (r.constraint_column_names as string[]).map(String);
  }
  return tables;
}

function typeError(table: string, column: Column, value: unknown, index: number): TypeError {
  return new TypeError(
    `Cannot store record ${index} in table "${table}": field "${column.field}" (${column.type}) got ${
      JSON.stringify(value) ?? String(value)
    }`,
  );
}

/** Appends one value of `column` to the appender, converting JS values by column type. */
export function appendValue(
  appender: DuckDBAppender,
  table: string,
  column: Column,
  value: unknown,
  index: number,
): void {
  if (value === undefined || value === null) return appender.appendNull();
  switch (column.type) {
    case "VARCHAR":
      if (typeof value === "object") throw typeError(table, column, value, index);
      return appender.appendVarchar(String(value));
    case "JSON":
      return appender.appendVarchar(typeof value === "string" ? value : JSON.stringify(value));
    case "INTEGER":
      if (typeof value !== "number" || !Number.isInteger(value)) {
        throw typeError(table, column, value, index);
      }
      return appender.appendInteger(value);
    case "BIGINT":
      if (typeof value !== "number" && typeof value !== "bigint") {
        throw typeError(table, column, value, index);
      }
      return appender.appendBigInt(BigInt(value));
    case "DOUBLE":
      if (typeof value !== "number") throw typeError(table, column, value, index);
      return appender.appendDouble(value);
    case "BOOLEAN":
      if (typeof value !== "boolean") throw typeError(table, column, value, index);
      return appender.appendBoolean(value);
    case "VARCHAR[]":
      if (!Array.isArray(value)) throw typeError(table, column, value, index);
      // The list type is explicit: an empty list has no item to infer it from.
      return appender.appendList(value.map(String), LIST(VARCHAR));
    case "TIMESTAMP": {
      const ms = value instanceof Date
        ? value.getTime()
        : typeof value === "number"
        ? value
        : Date.parse(String(value));
      if (!Number.isFinite(ms)) throw typeError(table, column, value, index);
      return appender.appendTimestamp(timestampValue(BigInt(Math.round(ms)) * 1000n));
    }
    default:
      throw new TypeError(
        `Cannot store column "${column.name}" of table "${table}": type ${column.type} is not supported`,
      );
  }
}

/** Converts a DuckDB JS value for records: bigint -> number, JSON text -> value. */
function fromDuck(value: unknown, json: boolean): unknown {
  if (typeof value === "bigint") return Number(value);
  if (json && typeof value === "string") {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * Reads a result as objects with camelCase keys. BIGINT becomes number and JSON
 * columns are parsed; nulls are kept, or left out when `dropNulls`.
 */
export function rowObjects<T>(reader: DuckDBResultReader, dropNulls = false): T[] {
  const names = reader.deduplicatedColumnNames().map(camel);
  const json = reader.columnTypes().map((t) => t.alias === "JSON");
  return reader.getRowsJS().map((row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const v = row[i];
      if (v === null && dropNulls) continue;
      out[names[i]] = fromDuck(v, json[i]);
    }
    return out as T;
  });
}
