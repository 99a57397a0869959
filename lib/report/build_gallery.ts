/**
 * The gallery page of an experiment: every saved table and figure on one page.
 *
 * @module
 */
import { join } from "node:path";
import { writeAtomic } from "@lib/formats/mod.ts";
import { htmlEscape } from "./_html_escape.ts";
import { type GalleryEntry, MANIFEST, readManifest } from "./_manifest.ts";

/** Options of {@linkcode buildGallery}. */
export interface BuildGalleryOptions {
  /** Page heading. Default: `Tables and figures of <folder name>`. */
  title?: string;
}

const STYLE = `body{font-family:"DejaVu Sans",system-ui,sans-serif;max-width:60rem;margin:2rem auto;
padding:0 1rem;color:#222;line-height:1.4}h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2.5rem;
border-top:1px solid #ddd;padding-top:1rem}figure{margin:1rem 0}img{max-width:100%;height:auto}
figcaption,.notes,.files{font-size:.85rem;color:#555}.crux-table{border-collapse:collapse;
font-size:.85rem;margin:1rem 0}.crux-table caption{text-align:left;font-weight:bold;padding:.3rem 0}
.crux-table th,.crux-table td{padding:.2rem .6rem}.crux-table thead{border-bottom:1px solid #222}
.crux-sortable thead tr:last-child th{cursor:pointer}.scroll{overflow-x:auto}`;

/**
 * Write `<outDir>/index.html`: a table of contents, then per saved analysis
 * (in the order of `analyses.json`, see {@linkcode recordGalleryEntry}) its
 * title, the figure (the saved SVG) with its subtitle lines, the table
 * (the saved sortable HTML: click a header to sort) with its notes, and
 * links to every file (CSV, Markdown, LaTeX, PNG, SVG, Vega-Lite). The page
 * has no external resources, so it opens offline.
 *
 * @param outDir The experiment's output folder (holding `analyses.json`).
 * @param opts `title`.
 * @returns The page's path.
 * @throws {Error} When `analyses.json` is missing or invalid, or a table file is missing.
 * @example
 * ```ts
 * import { recordGalleryEntry, saveTable } from "@lib/report/mod.ts";
 *
 * const dir = await Deno.makeTempDir(); // normally outputs/<experiment>
 * const t = { columns: [{ key: "cov", label: "Cov" }], rows: [{ label: "bm25", values: { cov: 0.5 } }] };
 * await saveTable(t, `${dir}/tables/cov`);
 * await recordGalleryEntry(dir, {
 *   name: "cov",
 *   title: "Coverage",
 *   subtitle: [],
 *   notes: [],
 *   table: { csv: "tables/cov.csv", md: "tables/cov.md", tex: "tables/cov.tex", html: "tables/cov.html" },
 * });
 * const page = await buildGallery(dir); // `${dir}/index.html`
 * ```
 */
export async function buildGallery(
  outDir: string,
  opts: BuildGalleryOptions = {},
): Promise<string> {
  const manifest = await readManifest(outDir);
  if (!manifest.analyses.length) {
    throw new Error(
      `${join(outDir, MANIFEST)}: no saved analyses; run the analyses (crux run, crux demo) first`,
    );
  }
  const name = outDir.replace(/\/+$/, "").split("/").pop() || outDir;
  const title = opts.title ?? `Tables and figures of ${name}`;
  const sections: string[] = [];
  for (const a of manifest.analyses) sections.push(await section(outDir, a));
  const figures = manifest.analyses.filter((a) => a.figure).length;
  const tables = manifest.analyses.filter((a) => a.table).length;
  const html = [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${htmlEscape(title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    `<h1>${htmlEscape(title)}</h1>`,
    `<p>${figures} figure(s) and ${tables} table(s). Figures are 300 dpi PNG and outlined SVG sized in points (3.3 in = one column, 7 in = two); tables come as CSV, Markdown and LaTeX (booktabs, siunitx).</p>`,
    "<nav><ol>",
    ...manifest.analyses.map((a) => `<li><a href="#${a.name}">${htmlEscape(a.title)}</a></li>`),
    "</ol></nav>",
    ...sections,
    "</body>",
    "</html>",
  ].join("\n") + "\n";
  const path = join(outDir, "index.html");
  await writeAtomic(path, html);
  return path;
}

async function section(outDir: string, a: GalleryEntry): Promise<string> {
  const out = [`<section id="${htmlEscape(a.name)}">`, `<h2>${htmlEscape(a.title)}</h2>`];
  if (a.figure) {
    out.push(
      "<figure>",
      `<img src="${htmlEscape(a.figure.svg)}" alt="${htmlEscape(a.title)}">`,
      a.subtitle.length
        ? `<figcaption>${a.subtitle.map(htmlEscape).join("<br>")}</figcaption>`
        : "",
      "</figure>",
    );
  }
  if (a.table) {
    let html: string;
    try {
      html = await Deno.readTextFile(join(outDir, a.table.html));
    } catch (e) {
      throw new Error(
        `${join(outDir, MANIFEST)}: ${a.name}: table file ${a.table.html} cannot be read (${
          (e as Error).message
        }); save the analysis again`,
      );
    }
    out.push(`<div class="scroll">${html}</div>`);
  }
  const files = [
    ...(a.figure
      ? [["PNG", a.figure.png], ["SVG", a.figure.svg], ["Vega-Lite", a.figure.spec]]
      : []),
    ...(a.table ? [["CSV", a.table.csv], ["Markdown", a.table.md], ["LaTeX", a.table.tex]] : []),
  ];
  out.push(
    `<p class="files">Files: ${
      files.map(([k, p]) => `<a href="${htmlEscape(p)}">${k}</a>`).join(" · ")
    }</p>`,
    "</section>",
  );
  return out.filter(Boolean).join("\n");
}
