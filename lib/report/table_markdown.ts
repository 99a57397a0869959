/**
 * Markdown rendering of a table.
 *
 * @module
 */
import { layout } from "./_cells.ts";
import type { Table } from "./types.ts";

/** Escape text for a Markdown table cell. */
function esc(text: string): string {
  return text.replace(/([\\|*`])/g, "\\$1").replace(/</g, "&lt;").replace(/\r?\n/g, " ");
}

/**
 * Render a table as GitHub-flavoured Markdown. Best values are **bold**, worst
 * values <u>underlined</u>; null cells show an en dash; numbers are
 * right-aligned. A caption becomes a leading `Table: caption` line (Pandoc's
 * caption syntax) and each note follows the table as `Note: text`. Grouped
 * columns get two header rows: the header row names each group over its
 * first column (its other columns blank), and the first body row, in bold,
 * holds the row header and the column labels; every Markdown renderer shows
 * them as two aligned header lines.
 *
 * @param t The table (validated as by {@linkcode table}).
 * @returns The Markdown text, ending with a newline.
 * @throws {TypeError | RangeError} When the table is invalid (see {@linkcode table}).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const md = tableMarkdown({
 *   columns: [{ key: "cov", label: "Cov@10", direction: "higher" }],
 *   rows: [{ label: "bm25", values: { cov: 0.5 } }, { label: "dense", values: { cov: 0.7 } }],
 * });
 * assert.ok(md.startsWith([
 *   "| Run | Cov@10 |",
 *   "| :-- | --: |",
 *   "| bm25 | <u>0.500</u> |",
 *   "| dense | **0.700** |",
 * ].join("\n")));
 * ```
 */
export function tableMarkdown(t: Table): string {
  const { table: tb, cells, spans, hasGroups } = layout(t);
  const labels = [esc(tb.rowHeader), ...tb.columns.map((c) => esc(c.label))];
  const groups = [""];
  for (const s of spans) {
    for (let k = 0; k < s.length; k++) groups.push(k === 0 && s.group ? esc(s.group) : "");
  }
  const header = hasGroups ? groups : labels;
  const numeric = tb.columns.map((_, j) => cells.some((row) => row[j].numeric));
  const align = [":--", ...numeric.map((n) => (n ? "--:" : ":--"))];
  const body = tb.rows.map((row, i) => [
    esc(row.label),
    ...cells[i].map((cell) => {
      if (cell.value === null) return "–";
      const text = esc(cell.text);
      if (cell.mark === "best") return `**${text}**`;
      if (cell.mark === "worst") return `<u>${text}</u>`;
      return text;
    }),
  ]);
  const line = (parts: string[]) => `| ${parts.join(" | ")} |`;
  const out: string[] = [];
  if (tb.caption) out.push(`Table: ${esc(tb.caption)}`, "");
  out.push(line(header), line(align));
  if (hasGroups) out.push(line(labels.map((l) => (l ? `**${l}**` : l))));
  out.push(...body.map(line));
  for (const note of tb.notes) out.push("", `Note: ${esc(note)}`);
  return out.join("\n") + "\n";
}
