/**
 * Jupyter display of a table.
 *
 * @module
 */
import { tableHtml } from "./table_html.ts";
import { tableMarkdown } from "./table_markdown.ts";
import { tableText } from "./table_text.ts";
import type { Table } from "./types.ts";

/** A MIME bundle: MIME type to content. */
export type MimeBundle = Record<string, unknown>;

/** An object the Deno Jupyter kernel displays richly; prints as plain text elsewhere. */
export interface Displayable {
  [key: symbol]: () => MimeBundle;
  /** The `text/plain` rendering. */
  toString(): string;
}

/**
 * Wrap a table for display in a Deno Jupyter notebook: the returned object's
 * `[Symbol.for("Jupyter.display")]()` gives `text/html` (sortable: click a
 * column header), `text/markdown` and
 * `text/plain` renderings (see {@linkcode tableHtml}, {@linkcode tableMarkdown},
 * {@linkcode tableText}). Make it a cell's last expression, or pass it to
 * `Deno.jupyter.display`. Under plain `deno run`, `String(x)` gives the text.
 * The table is rendered immediately, so an invalid table fails here.
 *
 * @param t The table.
 * @returns A displayable object.
 * @throws {TypeError | RangeError} When the table is invalid.
 * @example
 * ```ts
 * import { backendNote, metricTable } from "@lib/report/mod.ts";
 *
 * const rows = [{ run: "bm25", topicId: "t1", measure: "Cov@10", value: 0.5 }];
 * displayTable(metricTable(rows, { notes: [backendNote({ judge: "lexical" })] }));
 * ```
 */
export function displayTable(t: Table): Displayable {
  const bundle: MimeBundle = {
    "text/html": tableHtml(t, { sortable: true }),
    "text/markdown": tableMarkdown(t),
    "text/plain": tableText(t),
  };
  return {
    [Symbol.for("Jupyter.display")]: () => ({ ...bundle }),
    toString: () => bundle["text/plain"] as string,
  };
}
