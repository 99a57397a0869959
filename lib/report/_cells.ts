/**
 * Private helpers shared by the table renderers: cell formatting, best/worst
 * marking, column-group spans and row-group boundaries.
 *
 * @module
 */
import { table as checkTable } from "./table.ts";
import type { CellValue, Table, TableColumn } from "./types.ts";

/** A formatted cell with its best/worst mark. */
export interface Cell {
  value: CellValue;
  /** Display text ("" for null; renderers choose their own placeholder). */
  text: string;
  mark?: "best" | "worst";
  numeric: boolean;
}

/** A table ready for rendering: checked, formatted and marked. */
export interface Layout {
  table: ReturnType<typeof checkTable>;
  /** Cells by row, then column. */
  cells: Cell[][];
  /** Consecutive columns sharing a group; `group` undefined for ungrouped columns. */
  spans: { group?: string; start: number; length: number }[];
  /** True for row indexes that start a new row group (never for row 0). */
  groupStarts: boolean[];
  hasGroups: boolean;
}

/** Format a number for display with the column's formatter or fixed decimals. */
export function formatNumber(value: number, column: TableColumn): string {
  if (!Number.isFinite(value)) return String(value);
  if (column.format) return column.format(value);
  const text = value.toFixed(column.decimals ?? 3);
  return /^-0(\.0+)?$/.test(text) ? text.slice(1) : text;
}

function rankKey(value: number, column: TableColumn): number {
  return column.format ? value : Number(value.toFixed(column.decimals ?? 3));
}

/**
 * Check, format and mark a table. A column with a direction marks the best
 * and worst values among the rows outside the unmarked groups, compared as
 * displayed (rounded to the column's decimals); every tied row is marked; a
 * column whose markable values are all equal is not marked.
 */
export function layout(input: Table): Layout {
  const t = checkTable(input);
  const unmarked = new Set(t.unmarkedGroups);
  const cells: Cell[][] = t.rows.map((row) =>
    t.columns.map((col) => {
      const value = row.values[col.key] ?? null;
      if (value === null) return { value, text: "", numeric: false };
      if (typeof value === "string") return { value, text: value, numeric: false };
      return { value, text: formatNumber(value, col), numeric: true };
    })
  );
  t.columns.forEach((col, j) => {
    if (col.direction === "none") return;
    const keys: (number | undefined)[] = t.rows.map((row, i) => {
      const v = cells[i][j].value;
      const markable = typeof v === "number" && Number.isFinite(v) &&
        !(row.group !== undefined && unmarked.has(row.group));
      return markable ? rankKey(v as number, col) : undefined;
    });
    const present = keys.filter((k): k is number => k !== undefined);
    if (present.length === 0) return;
    const max = Math.max(...present);
    const min = Math.min(...present);
    if (max === min) return;
    const [best, worst] = col.direction === "higher" ? [max, min] : [min, max];
    keys.forEach((k, i) => {
      if (k === best) cells[i][j].mark = "best";
      else if (k === worst) cells[i][j].mark = "worst";
    });
  });
  const spans: Layout["spans"] = [];
  t.columns.forEach((col, j) => {
    const last = spans[spans.length - 1];
    if (last && col.group !== undefined && last.group === col.group) last.length++;
    else spans.push({ group: col.group, start: j, length: 1 });
  });
  const groupStarts = t.rows.map((r, i) => i > 0 && r.group !== t.rows[i - 1].group);
  return {
    table: t,
    cells,
    spans,
    groupStarts,
    hasGroups: t.columns.some((c) => c.group !== undefined),
  };
}
