/**
 * Saving an analysis' table and figure under an experiment's output folder.
 *
 * @module
 */
import { join, relative } from "node:path";
import {
  buildGallery,
  recordGalleryEntry,
  type SavedFigure,
  type SavedTable,
  saveFigure,
  saveTable,
} from "@lib/report/mod.ts";
import type { Analysis } from "./types.ts";

/** Files written by {@linkcode saveAnalysis}. */
export interface SavedAnalysis {
  name: string;
  table?: SavedTable;
  figure?: SavedFigure;
  /** The gallery page, rebuilt after saving (`<outDir>/index.html`). */
  gallery?: string;
}

/** Options of {@linkcode saveAnalysis}. */
export interface SaveAnalysisOptions {
  /** Record the analysis in `analyses.json` and rebuild `index.html`. Default true. */
  gallery?: boolean;
}

/**
 * Writes an analysis' table as `tables/<name>.csv|.md|.tex|.html` and its
 * figure as `figures/<name>.svg|.png|.vl.json` under `outDir` (normally
 * `outputs/<experiment>`), with `tables/<name>.cells.jsonl` (one line per numeric
 * cell: the key of the stored row it shows, or why it is blank) when the
 * analysis names its cells' rows; under `outDir` (normally
 * `outputs/<experiment>`), creating the folders; then records it (title,
 * caption, subtitle and notes, file paths, the cells file's too) in `outDir/analyses.json` and
 * rebuilds the gallery page `outDir/index.html` listing every saved table and
 * figure of the experiment. Files are written atomically.
 *
 * @param analysis The analysis (any of this area's functions' results).
 * @param outDir The experiment's output folder.
 * @param opts `gallery` (default true).
 * @returns The paths written.
 * @throws {Error} When a file cannot be written or the figure cannot be rendered.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { loadCruxData } from "@lib/analysis/mod.ts";
 * import { mainTable, saveAnalysis } from "@lib/analysis/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const data = await loadCruxData(ws);
 * const outDir = dir; // the workspace's folder, outputs/<experiment>, e.g. outputs/sample
 * const saved = await saveAnalysis(mainTable(data), outDir);
 * assert.equal(saved.table?.tex, `${outDir}/tables/main_table.tex`);
 * assert.equal(saved.gallery, `${outDir}/index.html`);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function saveAnalysis(
  analysis: Analysis,
  outDir: string,
  opts: SaveAnalysisOptions = {},
): Promise<SavedAnalysis> {
  const out: SavedAnalysis = { name: analysis.name };
  let cells: string | undefined;
  if (analysis.table) {
    out.table = await saveTable(analysis.table, join(outDir, "tables", analysis.name), {
      gallery: false,
    });
  }
  if (analysis.table && analysis.cells) {
    const file = join(outDir, "tables", `${analysis.name}.cells.jsonl`);
    const tmp = `${file}.tmp`;
    // Each line also names its column's CSV header (`group / label`), its row's
    // position and the column's printed digits, to join it to the CSV.
    const columns = new Map(analysis.table.columns.map((c) => [c.key, c]));
    const header = (k: string) => {
      const c = columns.get(k);
      return c && (c.group === undefined ? c.label : `${c.group} / ${c.label}`);
    };
    const rows = analysis.table.rows.map((r) => r.label);
    await Deno.writeTextFile(
      tmp,
      analysis.cells.map((c) =>
        JSON.stringify({
          ...c,
          header: header(c.column),
          index: c.index ?? rows.indexOf(c.row),
          position: analysis.table!.columns.findIndex((x) => x.key === c.column),
          decimals: columns.get(c.column)?.decimals ?? 3,
        }) + "\n"
      ).join(""),
    );
    await Deno.rename(tmp, file);
    cells = file;
  }
  if (analysis.figure) {
    out.figure = await saveFigure(analysis.figure, join(outDir, "figures", analysis.name), {
      gallery: false,
    });
  }
  if (opts.gallery ?? true) {
    const rel = <T extends object>(files: T): T =>
      Object.fromEntries(
        Object.entries(files).map(([k, p]) => [k, relative(outDir, p as string)]),
      ) as T;
    const head = analysis.figure?.title as { text?: string; subtitle?: string[] } | undefined;
    const figureTitle = head?.text?.replace(/\n/g, " ");
    await recordGalleryEntry(outDir, {
      name: analysis.name,
      title: figureTitle ?? analysis.table?.caption ?? analysis.name,
      ...(analysis.table?.caption ? { caption: analysis.table.caption } : {}),
      subtitle: head?.subtitle ?? [],
      notes: analysis.table?.notes ?? [],
      ...(out.table ? { table: rel(out.table) } : {}),
      ...(cells ? { cells: relative(outDir, cells) } : {}),
      ...(out.figure ? { figure: rel(out.figure) } : {}),
    });
    out.gallery = await buildGallery(outDir);
  }
  return out;
}
