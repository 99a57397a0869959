/**
 * HTML rendering of a table (for Jupyter and web pages).
 *
 * @module
 */
import { layout } from "./_cells.ts";
import { htmlEscape } from "./_html_escape.ts";
import { sortScript, tableId } from "./_sort_script.ts";
import type { Table } from "./types.ts";

/** Options of {@linkcode tableHtml}. */
export interface TableHtmlOptions {
  /**
   * Make the table sortable by clicking a column header (an inline script;
   * numeric cells carry their exact value in `data-value`). Default false.
   */
  sortable?: boolean;
}

const LEFT = ' style="text-align:left"';
const RIGHT = ' style="text-align:right"';

/**
 * Render a table as an HTML `<table class="crux-table">`: the caption in
 * `<caption>`, group headers with `colspan`, numbers right-aligned, best values
 * in `<b>`, worst in `<u>`, null cells as an en dash, each row group in its
 * own `<tbody>` (later groups with a top border), notes in `<tfoot>`. All text
 * is escaped.
 *
 * @param t The table (validated as by {@linkcode table}).
 * @param opts `sortable` (default false): click a header to sort the rows.
 * @returns The HTML fragment, ending with a newline.
 * @throws {TypeError | RangeError} When the table is invalid (see {@linkcode table}).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const html = tableHtml({
 *   columns: [{ key: "cov", label: "Cov@10", direction: "higher" }],
 *   rows: [{ label: "bm25", values: { cov: 0.5 } }, { label: "dense", values: { cov: 0.7 } }],
 * });
 * assert.ok(html.includes('<td style="text-align:right"><b>0.700</b></td>'));
 * ```
 */
export function tableHtml(t: Table, opts: TableHtmlOptions = {}): string {
  const { table: tb, cells, spans, groupStarts, hasGroups } = layout(t);
  const numeric = tb.columns.map((_, j) => cells.some((r) => r[j].numeric));
  const out: string[] = ['<table class="crux-table">'];
  if (tb.caption) out.push(`<caption>${htmlEscape(tb.caption)}</caption>`);
  out.push("<thead>");
  if (hasGroups) {
    const ths = ["<th></th>"];
    for (const s of spans) {
      const span = s.length > 1 ? ` colspan="${s.length}"` : "";
      ths.push(
        s.group === undefined
          ? "<th></th>".repeat(s.length)
          : `<th${span} style="text-align:center">${htmlEscape(s.group)}</th>`,
      );
    }
    out.push(`<tr>${ths.join("")}</tr>`);
  }
  out.push(
    `<tr><th${LEFT}>${htmlEscape(tb.rowHeader)}</th>${
      tb.columns.map((c, j) => `<th${numeric[j] ? RIGHT : LEFT}>${htmlEscape(c.label)}</th>`)
        .join("")
    }</tr>`,
    "</thead>",
    "<tbody>",
  );
  tb.rows.forEach((r, i) => {
    if (groupStarts[i]) out.push("</tbody>", '<tbody style="border-top:1px solid currentColor">');
    const tds = cells[i].map((c, j) => {
      const text = c.value === null ? "–" : htmlEscape(c.text);
      const inner = c.mark === "best"
        ? `<b>${text}</b>`
        : c.mark === "worst"
        ? `<u>${text}</u>`
        : text;
      const value = opts.sortable && typeof c.value === "number" ? ` data-value="${c.value}"` : "";
      return `<td${numeric[j] ? RIGHT : LEFT}${value}>${inner}</td>`;
    });
    out.push(`<tr><td${LEFT}>${htmlEscape(r.label)}</td>${tds.join("")}</tr>`);
  });
  out.push("</tbody>");
  if (tb.notes.length > 0) {
    const n = tb.columns.length + 1;
    out.push("<tfoot>");
    for (const note of tb.notes) {
      out.push(
        `<tr><td colspan="${n}" style="text-align:left;font-size:smaller">${
          htmlEscape(note)
        }</td></tr>`,
      );
    }
    out.push("</tfoot>");
  }
  out.push("</table>");
  if (opts.sortable) {
    const id = tableId(out.join("\n"));
    out[0] = `<table class="crux-table crux-sortable" id="${id}">`;
    out.push(sortScript(id));
  }
  return out.join("\n") + "\n";
}
