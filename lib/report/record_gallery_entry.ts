/**
 * Recording a saved table or figure in the experiment's manifest.
 *
 * @module
 */
import { join } from "node:path";
import { writeAtomic } from "@lib/formats/mod.ts";
import { type GalleryEntry, MANIFEST, readManifest } from "./_manifest.ts";

export type { GalleryEntry } from "./_manifest.ts";

/**
 * Add or replace (by name) an entry of `<outDir>/analyses.json`, the list of
 * every table and figure of an experiment with its caption and notes that
 * {@linkcode buildGallery} turns into the gallery page. Entries keep the
 * order in which they were first recorded. A cells file the replaced entry
 * listed stays listed when the new entry's table has none: the workbench wrote
 * it, so a later save may replace it. Written atomically.
 *
 * @param outDir The experiment's output folder (created when missing).
 * @param entry The entry; its paths are relative to `outDir`.
 * @returns The manifest's path.
 * @throws {Error} When an existing manifest is not one (the message names the file).
 * @example
 * ```ts
 * const dir = await Deno.makeTempDir(); // normally outputs/<experiment>
 * await recordGalleryEntry(dir, {
 *   name: "main_table",
 *   title: "Main comparison",
 *   subtitle: [],
 *   notes: ["offline backends: lexical judge"],
 *   table: { csv: "tables/main_table.csv", md: "tables/main_table.md", tex: "tables/main_table.tex", html: "tables/main_table.html" },
 * });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function recordGalleryEntry(outDir: string, entry: GalleryEntry): Promise<string> {
  const manifest = await readManifest(outDir);
  const at = manifest.analyses.findIndex((a) => a.name === entry.name);
  const kept = at >= 0 ? manifest.analyses[at].cells : undefined;
  const recorded = entry.table && !entry.cells && kept ? { ...entry, cells: kept } : entry;
  if (at >= 0) manifest.analyses[at] = recorded;
  else manifest.analyses.push(recorded);
  await Deno.mkdir(outDir, { recursive: true });
  const path = join(outDir, MANIFEST);
  await writeAtomic(path, JSON.stringify(manifest, null, 2) + "\n");
  return path;
}
