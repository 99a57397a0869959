/**
 * Saving an analysis' table and figure under an experiment's output folder.
 *
 * @module
 */
import { join } from "node:path";
import { type SavedFigure, type SavedTable, saveFigure, saveTable } from "@lib/report/mod.ts";
import type { Analysis } from "./types.ts";

/** Files written by {@linkcode saveAnalysis}. */
export interface SavedAnalysis {
  name: string;
  table?: SavedTable;
  figure?: SavedFigure;
}

/**
 * Writes an analysis' table as `tables/<name>.csv|.md|.tex` and its figure as
 * `figures/<name>.svg|.png|.vl.json` under `outDir` (normally
 * `outputs/<experiment>`), creating the folders. Files are written atomically.
 *
 * @param analysis The analysis (any of this area's functions' results).
 * @param outDir The experiment's output folder.
 * @returns The paths written.
 * @throws {Error} When a file cannot be written or the figure cannot be rendered.
 * @example
 * ```ts
 * import { type CruxData, mainTable, saveAnalysis } from "@lib/analysis/mod.ts";
 * declare const data: CruxData; // from loadCruxData(ws)
 * const outDir = await Deno.makeTempDir(); // normally outputs/<experiment>, e.g. outputs/sample
 * const saved = await saveAnalysis(mainTable(data), outDir);
 * saved.table?.tex; // `${outDir}/tables/main_table.tex`
 * ```
 */
export async function saveAnalysis(analysis: Analysis, outDir: string): Promise<SavedAnalysis> {
  const out: SavedAnalysis = { name: analysis.name };
  if (analysis.table) {
    out.table = await saveTable(analysis.table, join(outDir, "tables", analysis.name));
  }
  if (analysis.figure) {
    out.figure = await saveFigure(analysis.figure, join(outDir, "figures", analysis.name));
  }
  return out;
}
