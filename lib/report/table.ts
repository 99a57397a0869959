/**
 * The table constructor: validates a table description and returns a checked copy.
 *
 * @module
 */
import type { CellValue, Direction, Table, TableColumn, TableRow } from "./types.ts";

const DIRECTIONS: readonly Direction[] = ["higher", "lower", "none"];

/**
 * Validate a table and return a copy with defaults filled in (`rowHeader` =
 * `Run`, `decimals` = 3, `direction` = `none`, `unmarkedGroups` =
 * `["reference"]`, `notes` = `[]`). Every renderer accepts the result.
 *
 * @param spec The table: columns, rows, optional caption, label and notes.
 * @returns A new, validated table; the input is not modified.
 * @throws {TypeError} When a column key is empty or repeated, a row names an
 *   unknown column, or a cell is neither number, string nor null.
 * @throws {RangeError} When `decimals` is not an integer in 0..15 or a
 *   direction is unknown.
 * @example
 * ```ts
 * const t = table({
 *   columns: [{ key: "cov", label: "Cov@10", direction: "higher" }],
 *   rows: [{ label: "bm25", values: { cov: 0.5 } }, { label: "dense", values: { cov: 0.7 } }],
 *   notes: ["offline backends: lexical judge"],
 * });
 * ```
 */
export function table(spec: Table): Required<Omit<Table, "caption" | "label">> & Table {
  const seen = new Set<string>();
  const columns: TableColumn[] = spec.columns.map((c, i) => {
    const where = `column ${i + 1} ("${c.label}")`;
    if (typeof c.key !== "string" || c.key === "") {
      throw new TypeError(`Cannot build table: ${where} has an empty key; give every column a key`);
    }
    if (seen.has(c.key)) {
      throw new TypeError(
        `Cannot build table: ${where} repeats the key "${c.key}"; column keys must be unique`,
      );
    }
    seen.add(c.key);
    const decimals = c.decimals ?? 3;
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 15) {
      throw new RangeError(
        `Cannot build table: ${where} has decimals ${decimals}; use an integer from 0 to 15`,
      );
    }
    const direction = c.direction ?? "none";
    if (!DIRECTIONS.includes(direction)) {
      throw new RangeError(
        `Cannot build table: ${where} has direction "${direction}"; use higher, lower or none`,
      );
    }
    return { ...c, decimals, direction };
  });
  const rows: TableRow[] = spec.rows.map((r, i) => {
    const values: Record<string, CellValue> = {};
    for (const [key, value] of Object.entries(r.values)) {
      if (!seen.has(key)) {
        throw new TypeError(
          `Cannot build table: row ${
            i + 1
          } ("${r.label}") has a value for unknown column "${key}"; known columns: ${
            [...seen].join(", ")
          }`,
        );
      }
      if (value !== null && typeof value !== "number" && typeof value !== "string") {
        throw new TypeError(
          `Cannot build table: row ${
            i + 1
          } ("${r.label}") column "${key}" holds ${typeof value}; use a number, a string or null`,
        );
      }
      values[key] = value;
    }
    return { ...r, values };
  });
  return {
    ...spec,
    columns,
    rows,
    rowHeader: spec.rowHeader ?? "Run",
    notes: [...(spec.notes ?? [])],
    unmarkedGroups: [...(spec.unmarkedGroups ?? ["reference"])],
  };
}
