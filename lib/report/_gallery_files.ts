/**
 * Private: what an experiment's output folder holds on disk, as gallery
 * entries: the recorded ones (manifest) whose files exist, then every other
 * saved figure and table (e.g. saved from a notebook), with the stage and
 * method each belongs to.
 *
 * @module
 */
import { join } from "node:path";
import type { GalleryEntry } from "./_manifest.ts";

/** Stages and methods, in page order; an entry belongs to the first whose pattern its name matches. */
export const GALLERY_GROUPS: readonly { title: string; pattern: RegExp }[] = [
  { title: "Dataset", pattern: /^(dataset|ratings?_|topics?_stat|passage)/ },
  {
    title: "Retrieval and contexts",
    pattern: /^(context(?!_size)|per_topic_coverage|metric_correlations|retrieval|run_)/,
  },
  { title: "Generation", pattern: /^(generation|report_length)/ },
  {
    title: "CRUX: report coverage",
    pattern: /^(report_scores|main_table|threshold|context_size|topic_coverage|crux)/,
  },
  { title: "Judges and human agreement", pattern: /^(human|agreement|judge|rating_)/ },
  { title: "Nuggets", pattern: /^nugget/ },
  { title: "Key points", pattern: /^keypoint/ },
  { title: "Typed sub-questions", pattern: /^subq/ },
  { title: "Methods side by side", pattern: /^method/ },
];

/** The group title of an entry name (`Other` when none matches). */
export function galleryGroup(name: string): string {
  return GALLERY_GROUPS.find((g) => g.pattern.test(name))?.title ?? "Other";
}

async function names(dir: string, ext: string): Promise<Set<string>> {
  const out = new Set<string>();
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(ext)) out.add(e.name.slice(0, -ext.length));
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** Title and subtitle lines of a saved Vega-Lite spec (none when unreadable). */
async function specTitle(path: string): Promise<{ text?: string; subtitle: string[] }> {
  try {
    const spec = JSON.parse(await Deno.readTextFile(path));
    const t = spec.title;
    if (typeof t === "string") return { text: t, subtitle: [] };
    const sub = t?.subtitle;
    return {
      text: typeof t?.text === "string" ? t.text.replace(/\n/g, " ") : undefined,
      subtitle: Array.isArray(sub) ? sub.map(String) : typeof sub === "string" ? [sub] : [],
    };
  } catch {
    return { subtitle: [] };
  }
}

/** The caption of a saved HTML table (none when it has none). */
async function tableCaption(path: string): Promise<string | undefined> {
  const html = await Deno.readTextFile(path);
  const m = html.match(/<caption>([\s\S]*?)<\/caption>/);
  return m
    ? m[1].replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&").trim()
    : undefined;
}

/** Entries with their group, and the recorded entries left out because their files are gone. */
export interface GalleryContent {
  entries: (GalleryEntry & { group: string })[];
  missing: string[];
}

/**
 * Every figure (`figures/<name>.svg` or `.png`) and table
 * (`tables/<name>.html`) under `outDir`: recorded entries first (their figure
 * or table dropped when its file is gone), then the unrecorded ones by name.
 */
export async function galleryContent(
  outDir: string,
  recorded: readonly GalleryEntry[],
): Promise<GalleryContent> {
  const svgs = await names(join(outDir, "figures"), ".svg");
  const pngs = await names(join(outDir, "figures"), ".png");
  const htmls = await names(join(outDir, "tables"), ".html");
  const figures = new Set([...svgs, ...pngs]);
  const figureFiles = (name: string) => ({
    svg: `figures/${name}.svg`,
    png: `figures/${name}.png`,
    spec: `figures/${name}.vl.json`,
  });
  const tableFiles = (name: string) => ({
    csv: `tables/${name}.csv`,
    md: `tables/${name}.md`,
    tex: `tables/${name}.tex`,
    html: `tables/${name}.html`,
  });
  const entries: GalleryContent["entries"] = [];
  const missing: string[] = [];
  const seenFigures = new Set<string>();
  const seenTables = new Set<string>();
  for (const a of recorded) {
    const figure = a.figure && (await exists(join(outDir, a.figure.svg)) ||
        await exists(join(outDir, a.figure.png)))
      ? a.figure
      : undefined;
    const table = a.table && await exists(join(outDir, a.table.html)) ? a.table : undefined;
    if (!figure && !table) {
      missing.push(a.name);
      continue;
    }
    if (figure) seenFigures.add(figure.svg.replace(/^figures\/|\.svg$/g, ""));
    if (table) seenTables.add(table.html.replace(/^tables\/|\.html$/g, ""));
    entries.push({
      ...a,
      ...(figure ? { figure } : { figure: undefined }),
      ...(table ? { table } : { table: undefined }),
      group: galleryGroup(a.name),
    });
  }
  const rest = [...new Set([...figures, ...htmls])]
    .filter((n) => !seenFigures.has(n) && !seenTables.has(n)).sort();
  for (const name of rest) {
    const hasFigure = figures.has(name) && !seenFigures.has(name);
    const hasTable = htmls.has(name) && !seenTables.has(name);
    const head = hasFigure
      ? await specTitle(join(outDir, "figures", `${name}.vl.json`))
      : { subtitle: [] };
    const caption = hasTable
      ? await tableCaption(join(outDir, "tables", `${name}.html`))
      : undefined;
    entries.push({
      name,
      title: head.text ?? caption ?? name,
      ...(caption ? { caption } : {}),
      subtitle: head.subtitle,
      notes: [],
      ...(hasFigure ? { figure: figureFiles(name) } : {}),
      ...(hasTable ? { table: tableFiles(name) } : {}),
      group: galleryGroup(name),
    });
  }
  return { entries, missing };
}
