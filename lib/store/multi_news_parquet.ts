/**
 * Multi-News examples from a Parquet file (columns `document` and `summary`),
 * read through an in-memory DuckDB.
 *
 * @module
 */
import {
  checkMultiNewsColumns,
  type MultiNewsExample,
  type MultiNewsOptions,
  multiNewsRowExamples,
} from "@lib/formats/mod.ts";

/**
 * Reads Multi-News Parquet (columns `document` and `summary`) through DuckDB.
 *
 * @param path The Parquet file.
 * @param opts `limit` (default all); `onDuplicates` receives the number of rows
 *   repeating an earlier one exactly (dropped, so they take no position).
 * @returns The examples in row order.
 * @throws {InputError} When the file lacks the `document` or `summary` column, or
 *   a row repeats an earlier row's articles with another summary.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @example
 * ```ts ignore
 * // Not run as a test: it reads Multi-News, which the user brings.
 * import { readMultiNewsParquet } from "@lib/store/mod.ts";
 * const examples = await readMultiNewsParquet("multi_news/test.parquet", { limit: 100 });
 * ```
 */
export async function readMultiNewsParquet(
  path: string,
  opts: MultiNewsOptions = {},
): Promise<MultiNewsExample[]> {
  await Deno.stat(path).catch(() => {
    throw new Deno.errors.NotFound(`Cannot read "${path}": no such file; check the path`);
  });
  // Imported here so that importers of other formats do not load DuckDB.
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const schema = await connection.runAndReadAll("DESCRIBE SELECT * FROM read_parquet($1)", [
      path,
    ]);
    checkMultiNewsColumns(path, schema.getRowObjectsJS().map((r) => String(r.column_name)));
    const reader = await connection.runAndReadAll(
      "SELECT document, summary FROM read_parquet($1)",
      [path],
    );
    return multiNewsRowExamples(path, reader.getRowsJS(), opts);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
