/**
 * The gallery page of an experiment: every saved table and figure on one page.
 *
 * @module
 */
import { join } from "node:path";
import { writeAtomic } from "@lib/formats/mod.ts";
import { htmlEscape } from "./_html_escape.ts";
import { type GalleryEntry, MANIFEST, readManifest } from "./_manifest.ts";
import { GALLERY_GROUPS, galleryContent } from "./_gallery_files.ts";

/** Options of {@linkcode buildGallery}. */
export interface BuildGalleryOptions {
  /** Page heading. Default: `Tables and figures of <folder name>`. */
  title?: string;
}

const STYLE = `body{font-family:"DejaVu Sans",system-ui,sans-serif;max-width:75rem;margin:2rem auto;
padding:0 1rem;color:#222;line-height:1.4}h1{font-size:1.5rem}h2.group{font-size:1.3rem;margin-top:3rem;
border-bottom:2px solid #222}h3{font-size:1.05rem;margin-top:2rem;border-top:1px solid #ddd;padding-top:1rem}
figure{margin:1rem 0;overflow-x:auto}figure img{max-width:none;cursor:zoom-in}
figcaption,.notes,.files,.missing{font-size:.85rem;color:#555}.crux-table{border-collapse:collapse;
font-size:.85rem;margin:1rem 0}.crux-table caption{text-align:left;font-weight:bold;padding:.3rem 0}
.crux-table th,.crux-table td{padding:.2rem .6rem}.crux-table thead{border-bottom:1px solid #222}
.crux-sortable thead tr:last-child th{cursor:pointer}.scroll{overflow-x:auto}summary{cursor:pointer;
font-size:.9rem}#zoom{position:fixed;inset:0;background:rgba(255,255,255,.97);overflow:auto;z-index:10;
cursor:zoom-out}#zoom[hidden]{display:none}#zoom img{display:block;width:min(100%,2100px);margin:auto}`;

/** Tables with more rows than this are collapsed (a click shows them). */
const LONG_TABLE = 20;

// Click a figure to see its 300 dpi PNG across the window; click or Escape closes.
const ZOOM_SCRIPT = `<script>(()=>{const z=document.getElementById("zoom"),i=z.querySelector("img");
document.querySelectorAll("figure img").forEach((f)=>f.addEventListener("click",()=>{
i.src=f.dataset.full||f.src;i.alt=f.alt;z.hidden=false;}));const close=()=>{z.hidden=true;};
z.addEventListener("click",close);document.addEventListener("keydown",(e)=>{if(e.key==="Escape")close();});})();</script>`;

/**
 * Write `<outDir>/index.html`: every figure and table saved under `outDir`
 * — those recorded in `analyses.json` (see {@linkcode recordGalleryEntry}),
 * in their order, and any other file under `figures/` and `tables/` (e.g.
 * saved from a notebook), titled from its spec or caption — grouped by stage
 * and method (dataset, retrieval and contexts, generation, CRUX, judges,
 * nuggets, key points, sub-questions, methods side by side), with counts
 * that match the files. Each shows its title, the figure at its size (click
 * to see the 300 dpi PNG across the window) with its subtitle lines, the
 * table (sortable; more than 20 rows collapsed behind their row count), and
 * links to the files present. Recorded entries whose files are gone are left
 * out and named. The page has no external resources, so it opens offline.
 *
 * @param outDir The experiment's output folder (holding `analyses.json`).
 * @param opts `title`.
 * @returns The page's path.
 * @throws {Error} When nothing is saved under `outDir`, or `analyses.json` is invalid.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
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
 * const page = await buildGallery(dir);
 * assert.equal(page, `${dir}/index.html`);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function buildGallery(
  outDir: string,
  opts: BuildGalleryOptions = {},
): Promise<string> {
  const manifest = await readManifest(outDir);
  const { entries, missing } = await galleryContent(outDir, manifest.analyses);
  if (!entries.length) {
    throw new Error(
      `${join(outDir, MANIFEST)}: no saved analyses; run the analyses (crux run, crux demo) first`,
    );
  }
  const name = outDir.replace(/\/+$/, "").split("/").pop() || outDir;
  const title = opts.title ?? `Tables and figures of ${name}`;
  const groups = [...GALLERY_GROUPS.map((g) => g.title), "Other"]
    .map((g) => ({ title: g, entries: entries.filter((e) => e.group === g) }))
    .filter((g) => g.entries.length);
  const figures = entries.filter((a) => a.figure).length;
  const tables = entries.filter((a) => a.table).length;
  const body: string[] = [];
  for (const g of groups) {
    body.push(
      `<h2 class="group" id="${anchor(g.title)}">${htmlEscape(g.title)} (${count(g.entries)})</h2>`,
    );
    for (const a of g.entries) body.push(await section(outDir, a));
  }
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
    `<p class="counts">${figures} figure(s) and ${tables} table(s), every file under figures/ and tables/. Figures are 300 dpi PNG and outlined SVG sized in points (3.3 in = one column, 7 in = two), shown at their size: click one to enlarge it. Tables come as CSV, Markdown and LaTeX (booktabs, siunitx); click a column header to sort.</p>`,
    ...(missing.length
      ? [
        `<p class="missing">Recorded but no longer on disk (left out): ${
          missing.map(htmlEscape).join(", ")
        }.</p>`,
      ]
      : []),
    "<nav><ol>",
    ...groups.map((g) =>
      `<li><a href="#${anchor(g.title)}">${htmlEscape(g.title)}</a><ol>${
        g.entries.map((a) => `<li><a href="#${htmlEscape(a.name)}">${htmlEscape(a.title)}</a></li>`)
          .join("")
      }</ol></li>`
    ),
    "</ol></nav>",
    ...body,
    '<div id="zoom" hidden><img alt=""></div>',
    ZOOM_SCRIPT,
    "</body>",
    "</html>",
  ].join("\n") + "\n";
  const path = join(outDir, "index.html");
  await writeAtomic(path, html);
  return path;
}

const anchor = (group: string) => `group-${group.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

function count(entries: readonly GalleryEntry[]): string {
  const f = entries.filter((e) => e.figure).length;
  const t = entries.filter((e) => e.table).length;
  return [f ? `${f} figure${f > 1 ? "s" : ""}` : "", t ? `${t} table${t > 1 ? "s" : ""}` : ""]
    .filter(Boolean).join(", ");
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function section(outDir: string, a: GalleryEntry): Promise<string> {
  const out = [`<section id="${htmlEscape(a.name)}">`, `<h3>${htmlEscape(a.title)}</h3>`];
  if (a.figure) {
    const svg = await exists(join(outDir, a.figure.svg));
    const png = await exists(join(outDir, a.figure.png));
    out.push(
      "<figure>",
      `<img src="${htmlEscape(svg ? a.figure.svg : a.figure.png)}"${
        png ? ` data-full="${htmlEscape(a.figure.png)}"` : ""
      } alt="${htmlEscape(a.title)}">`,
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
    const body = html.match(/<tbody>([\s\S]*?)<\/tbody>/)?.[1] ?? "";
    const rows = (body.match(/<tr[\s>]/g) ?? []).length;
    out.push(
      rows > LONG_TABLE
        ? `<details><summary>Table: ${rows} rows (click to show)</summary><div class="scroll">${html}</div></details>`
        : `<div class="scroll">${html}</div>`,
    );
  }
  const files = [
    ...(a.figure
      ? [["PNG", a.figure.png], ["SVG", a.figure.svg], ["Vega-Lite", a.figure.spec]]
      : []),
    ...(a.table ? [["CSV", a.table.csv], ["Markdown", a.table.md], ["LaTeX", a.table.tex]] : []),
  ];
  const present: string[][] = [];
  for (const f of files) if (await exists(join(outDir, f[1]))) present.push(f);
  out.push(
    `<p class="files">Files: ${
      present.map(([k, p]) => `<a href="${htmlEscape(p)}">${k}</a>`).join(" · ")
    }</p>`,
    "</section>",
  );
  return out.filter(Boolean).join("\n");
}
