/**
 * Saving a table as CSV, Markdown and LaTeX files.
 *
 * @module
 */
import { refreshGallery } from "./_refresh_gallery.ts";
import { dirname } from "node:path";
import { writeAtomic } from "@lib/formats/mod.ts";
import { tableCsv } from "./table_csv.ts";
import { tableLatex } from "./table_latex.ts";
import { tableHtml } from "./table_html.ts";
import { tableMarkdown } from "./table_markdown.ts";
import type { Table } from "./types.ts";

/** Paths written by {@linkcode saveTable}. */
export interface SavedTable {
  csv: string;
  md: string;
  tex: string;
  /** Sortable HTML (see {@linkcode tableHtml}), used by the gallery page. */
  html: string;
}

/**
 * Write a table to `basePath + ".csv"`, `".md"`, `".tex"` and `".html"` (see
 * {@linkcode tableCsv}, {@linkcode tableMarkdown}, {@linkcode tableLatex} with siunitx
 * decimal alignment: load `\usepackage{booktabs,siunitx}`).
 * Each file is written atomically (temporary file, then rename); missing parent
 * folders are created. The table is rendered completely before anything is
 * written, so an invalid table leaves no file behind.
 *
 * @param t The table.
 * @param basePath Path without extension, e.g. `outputs/exp1/tables/coverage`.
 * @param opts `gallery`: rebuild the experiment's gallery when saving into
 *   `<outDir>/tables/` and `<outDir>/index.html` exists (default true).
 * @returns The four paths written.
 * @throws {TypeError | RangeError} When the table is invalid.
 * @throws {Error} When a file cannot be written.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { metricTable } from "@lib/report/mod.ts";
 *
 * const t = metricTable([{ run: "bm25", topicId: "t1", measure: "Cov@10", value: 0.5 }]);
 * const dir = await Deno.makeTempDir(); // notebooks use outputs/<experiment>/tables
 * const paths = await saveTable(t, `${dir}/coverage`);
 * assert.equal(paths.tex, `${dir}/coverage.tex`);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function saveTable(
  t: Table,
  basePath: string,
  opts: { gallery?: boolean } = {},
): Promise<SavedTable> {
  const files: SavedTable = {
    csv: `${basePath}.csv`,
    md: `${basePath}.md`,
    tex: `${basePath}.tex`,
    html: `${basePath}.html`,
  };
  const texts = {
    csv: tableCsv(t),
    md: tableMarkdown(t),
    tex: tableLatex(t, { siunitx: true }),
    html: tableHtml(t, { sortable: true }),
  };
  await Deno.mkdir(dirname(basePath), { recursive: true });
  await writeAtomic(files.csv, texts.csv);
  await writeAtomic(files.md, texts.md);
  await writeAtomic(files.tex, texts.tex);
  await writeAtomic(files.html, texts.html);
  if (opts.gallery ?? true) await refreshGallery(basePath, "tables");
  return files;
}
