/**
 * Plain-text rendering of a table for the terminal.
 *
 * @module
 */
import { layout } from "./_cells.ts";
import type { Table } from "./types.ts";

/** Options of {@linkcode tableText}. */
export interface TableTextOptions {
  /** Use ANSI bold/underline instead of `*`/`_` markers. Default false. */
  ansi?: boolean;
}

const pad = (s: string, n: number, right: boolean) => right ? s.padStart(n) : s.padEnd(n);

/**
 * Render a table as aligned plain text. Without ANSI, best values carry a `*`
 * suffix and worst values a `_` suffix (explained by a legend line); null
 * cells show `-`; numbers are right-aligned; a dashed rule separates the header
 * and row groups; grouped columns get a centred group line above the header.
 *
 * @param t The table (validated as by {@linkcode table}).
 * @param opts Output options; `ansi` defaults to false.
 * @returns The text, ending with a newline, no trailing spaces.
 * @throws {TypeError | RangeError} When the table is invalid (see {@linkcode table}).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = tableText({
 *   columns: [{ key: "cov", label: "Cov@10", direction: "higher" }],
 *   rows: [{ label: "bm25", values: { cov: 0.5 } }, { label: "dense", values: { cov: 0.7 } }],
 * });
 * assert.equal(text, [
 *   "Run    Cov@10",
 *   "-----  ------",
 *   "bm25   0.500_",
 *   "dense  0.700*",
 *   "",
 *   "* best, _ worst in each column",
 *   "",
 * ].join("\n"));
 * ```
 */
export function tableText(t: Table, opts: TableTextOptions = {}): string {
  const { table: tb, cells, spans, groupStarts, hasGroups } = layout(t);
  const ansi = opts.ansi ?? false;
  const marked = tb.columns.map((_, j) => cells.some((r) => r[j].mark !== undefined));
  const numeric = tb.columns.map((_, j) => cells.some((r) => r[j].numeric));
  const grid = cells.map((row) =>
    row.map((c, j) => {
      const text = c.value === null ? "-" : c.text;
      if (ansi || !marked[j]) return text;
      return text + (c.mark === "best" ? "*" : c.mark === "worst" ? "_" : " ");
    })
  );
  const widths = [
    Math.max(tb.rowHeader.length, ...tb.rows.map((r) => r.label.length)),
    ...tb.columns.map((c, j) => Math.max(c.label.length, ...grid.map((r) => r[j].length))),
  ];
  for (const s of spans) {
    if (s.group === undefined) continue;
    const cols = widths.slice(s.start + 1, s.start + 1 + s.length);
    const inner = cols.reduce((a, b) => a + b, 0) + 2 * (s.length - 1);
    if (s.group.length > inner) widths[s.start + 1 + s.length - 1] += s.group.length - inner;
  }
  const join = (parts: string[]) => parts.join("  ").trimEnd();
  const out: string[] = [];
  if (tb.caption) out.push(tb.caption, "");
  if (hasGroups) {
    const parts = [" ".repeat(widths[0])];
    for (const s of spans) {
      const inner = widths.slice(s.start + 1, s.start + 1 + s.length).reduce((a, b) => a + b, 0) +
        2 * (s.length - 1);
      const g = s.group ?? "";
      const left = Math.floor((inner - g.length) / 2);
      parts.push((" ".repeat(left) + g).padEnd(inner));
    }
    out.push(join(parts));
  }
  out.push(join([
    pad(tb.rowHeader, widths[0], false),
    ...tb.columns.map((c, j) => pad(c.label, widths[j + 1], numeric[j])),
  ]));
  const rule = join(widths.map((w) => "-".repeat(w)));
  out.push(rule);
  tb.rows.forEach((row, i) => {
    if (groupStarts[i]) out.push(rule);
    out.push(join([
      pad(row.label, widths[0], false),
      ...grid[i].map((text, j) => {
        const mark = cells[i][j].mark;
        if (!ansi || mark === undefined) return pad(text, widths[j + 1], numeric[j]);
        const fill = " ".repeat(widths[j + 1] - text.length);
        const styled = `\x1b[${mark === "best" ? 1 : 4}m${text}\x1b[0m`;
        return numeric[j] ? fill + styled : styled + fill;
      }),
    ]));
  });
  if (tb.notes.length > 0 || (!ansi && marked.some(Boolean))) out.push("");
  for (const note of tb.notes) out.push(note);
  if (!ansi && marked.some(Boolean)) out.push("* best, _ worst in each column");
  return out.join("\n") + "\n";
}
