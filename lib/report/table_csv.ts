/**
 * CSV rendering of a table.
 *
 * @module
 */
import { table as checkTable } from "./table.ts";
import type { Table } from "./types.ts";

/** Options of {@linkcode tableCsv}. */
export interface TableCsvOptions {
  /**
   * Write the caption and notes as leading `# ` comment lines, so a table
   * produced by offline backends stays labelled as such. Default true. Readers:
   * arquero `fromCSV(text, { comment: "#" })`, pandas `comment="#"`.
   */
  comments?: boolean;
}

function field(text: string): string {
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Render a table as CSV with plain values: numbers at full precision (the
 * shortest text that reads back to the same double), strings as is, null as
 * an empty field; no best/worst marks. The header is the row header followed
 * by the column labels (`group / label` for grouped columns); a `group` column
 * follows the row label when any row has a group. Fields holding a comma,
 * quote, newline or edge space are quoted (RFC 4180).
 *
 * @param t The table (validated as by {@linkcode table}).
 * @param opts `comments` (default true) writes caption and notes as `# ` lines.
 * @returns The CSV text with `\n` line ends, ending with a newline.
 * @throws {TypeError | RangeError} When the table is invalid (see {@linkcode table}).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const csv = tableCsv({
 *   columns: [{ key: "cov", label: "Cov@10" }],
 *   rows: [{ label: "bm25", values: { cov: 1 / 3 } }],
 * });
 * assert.equal(csv, "Run,Cov@10\nbm25,0.3333333333333333\n");
 * ```
 */
export function tableCsv(t: Table, opts: TableCsvOptions = {}): string {
  const tb = checkTable(t);
  const grouped = tb.rows.some((r) => r.group !== undefined);
  const out: string[] = [];
  if (opts.comments ?? true) {
    for (const line of [tb.caption, ...tb.notes]) {
      if (line) out.push(`# ${line.replace(/\r?\n/g, " ")}`);
    }
  }
  out.push(
    [
      tb.rowHeader,
      ...(grouped ? ["group"] : []),
      ...tb.columns.map((c) => (c.group === undefined ? c.label : `${c.group} / ${c.label}`)),
    ].map(field).join(","),
  );
  for (const r of tb.rows) {
    const values = tb.columns.map((c) => {
      const v = r.values[c.key] ?? null;
      return v === null ? "" : String(v);
    });
    out.push([r.label, ...(grouped ? [r.group ?? ""] : []), ...values].map(field).join(","));
  }
  return out.join("\n") + "\n";
}
