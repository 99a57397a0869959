/**
 * The output guard for analysis folders: saving an analysis under a folder must
 * not replace a file the workbench did not write there.
 *
 * @module
 */
import { join, relative } from "node:path";
import { readManifest } from "./_manifest.ts";

/** An analysis folder holding a file, under a name about to be saved, that the workbench did not write. */
export class AnalysisFolderConflictError extends Error {
  override name = "AnalysisFolderConflictError";
}

/** Sub-folders where analyses save their files. */
const SUBFOLDERS = ["tables", "figures"];

/**
 * Checks, before any work starts, that saving analyses under the given names
 * into `outDir` replaces only files the workbench wrote there: a file at
 * `tables/<name>.*` or `figures/<name>.*` must be listed for that name in the
 * folder's `analyses.json` (a table's `tables/<name>.cells.jsonl` as the entry's
 * `cells`; a manifest of version 1, which did not list cells files, lists the one beside
 * each table's CSV when read). A folder without `analyses.json` must hold no such
 * file at all. The experiment's own workspace folder passes the same check,
 * since everything there was saved through the manifest.
 *
 * @param outDir The folder analyses will be saved into.
 * @param names The analyses' names (file base names), e.g. `["method_system"]`.
 * @param opts `option`: the command-line option that named the folder (for the message; default `--out`).
 * @throws {AnalysisFolderConflictError} Naming the first foreign file and what to do.
 * @example
 * ```ts
 * import { guardAnalysisOutputs } from "@lib/report/mod.ts";
 * const dir = await Deno.makeTempDir(); // normally outputs/<experiment>
 * await guardAnalysisOutputs(dir, ["method_system"]); // an empty folder passes
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function guardAnalysisOutputs(
  outDir: string,
  names: readonly string[],
  opts: { option?: string } = {},
): Promise<void> {
  const manifest = await readManifest(outDir);
  const ours = new Set<string>();
  for (const entry of manifest.analyses) {
    for (const files of [entry.table, entry.figure]) {
      for (const p of Object.values(files ?? {})) ours.add(String(p));
    }
    if (entry.cells !== undefined) ours.add(entry.cells);
  }
  const wanted = new Set(names);
  for (const sub of SUBFOLDERS) {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(join(outDir, sub))];
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      throw error;
    }
    for (const e of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
      const base = e.name.split(".")[0];
      if (!wanted.has(base)) continue;
      const rel = relative(outDir, join(outDir, sub, e.name));
      if (!ours.has(rel)) {
        throw new AnalysisFolderConflictError(
          `Refusing to save into ${opts.option ?? "--out"} "${outDir}": ${rel} exists and was ` +
            "not written by the workbench (it is not listed in analyses.json); saving would " +
            "replace it. Choose an empty or new folder, or move the file",
        );
      }
    }
  }
}
