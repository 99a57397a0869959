/**
 * Naming where each numeric cell of a table comes from, cell by cell, for the
 * `tables/<name>.cells.jsonl` file saved beside it.
 *
 * @module
 */
import type { CellValue, Table, TableRow } from "@lib/report/mod.ts";
import type { CellSource } from "./types.ts";

/** Where one cell comes from: a stored row's key, a derived statistic, or a blank's reason. */
export type CellOrigin = Omit<CellSource, "row" | "column" | "header" | "index">;

/** A number, or a string that reads as one (e.g. a row number `3`). */
const numeric = (v: CellValue): boolean =>
  typeof v === "number" ||
  (typeof v === "string" && /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v));

/**
 * The cell sources of a table: `origin` is asked about every numeric cell
 * (a number, or text that reads as one) and every blank one; a numeric cell
 * must get a stored row's key or a derived statistic, a blank one gets a
 * line only when `origin` gives its reason.
 *
 * @param t The table.
 * @param origin Row, column key and value (null when blank) -> where it comes from.
 * @returns One source per numeric cell and per explained blank, in row order.
 * @throws {Error} When a numeric cell gets no stored key and no derivation.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { table } from "@lib/report/mod.ts";
 * import { tableCells } from "@lib/analysis/table_cells.ts";
 * const t = table({ columns: [{ key: "n", label: "N" }], rows: [{ label: "a", values: { n: 2 } }] });
 * const cells = tableCells(t, () => ({ derived: "count" }));
 * assert.deepEqual(cells, [{ row: "a", index: 0, column: "n", derived: "count" }]);
 * ```
 */
export function tableCells(
  t: Table,
  origin: (row: TableRow, column: string, value: CellValue) => CellOrigin | undefined,
): CellSource[] {
  const out: CellSource[] = [];
  t.rows.forEach((row, index) => {
    for (const c of t.columns) {
      const value = row.values[c.key] ?? null;
      const blank = value === null || (typeof value === "number" && !Number.isFinite(value));
      if (!blank && !numeric(value)) continue;
      const o = origin(row, c.key, blank ? null : value);
      if (!blank && !o?.key && !o?.derived) {
        throw new Error(
          `table "${
            t.caption ?? ""
          }": cell ${row.label} / ${c.label} has no stored row and no derivation`,
        );
      }
      if (blank) {
        if (o?.reason) out.push({ row: row.label, index, column: c.key, reason: o.reason });
      } else {
        // A shown value's line names where it comes from; a reason is for blanks only.
        const { reason: _, ...shown } = o!;
        out.push({ row: row.label, index, column: c.key, ...shown });
      }
    }
  });
  return out;
}
