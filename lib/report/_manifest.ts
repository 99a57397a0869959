/**
 * Private: the manifest of an experiment's saved tables and figures
 * (`<outDir>/analyses.json`), read by the gallery page.
 *
 * @module
 */
import { join } from "node:path";

/** File name of the manifest inside an experiment's output folder. */
export const MANIFEST = "analyses.json";

/** One saved analysis: what it shows and where its files are (relative to the output folder). */
export interface GalleryEntry {
  /** File base name, e.g. `main_table`. */
  name: string;
  /** Figure title (line breaks as spaces) or table caption. */
  title: string;
  /** Table caption, when there is a table. */
  caption?: string;
  /** Figure subtitle and note lines. */
  subtitle: string[];
  /** Table notes. */
  notes: string[];
  table?: { csv: string; md: string; tex: string; html: string };
  /** The table's cells file (`tables/<name>.cells.jsonl`), when one was saved with the table. */
  cells?: string;
  figure?: { svg: string; png: string; spec: string };
}

/**
 * The manifest file's content. Version 2 lists each table's cells file as the
 * entry's `cells`; version 1 did not list them, and a table's cells file
 * beside its CSV was the workbench's as well.
 */
export interface Manifest {
  version: 2;
  analyses: GalleryEntry[];
}

/**
 * Read the manifest; an empty one when the file does not exist. A version 1
 * manifest is read as version 2: each entry with a table lists the cells file
 * beside the table's CSV, which version 1 counted as written with the table.
 */
export async function readManifest(outDir: string): Promise<Manifest> {
  const path = join(outDir, MANIFEST);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { version: 2, analyses: [] };
    throw e;
  }
  let value: { version?: unknown; analyses?: unknown };
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}:1: not JSON (${(e as Error).message}); delete it and save again`);
  }
  if ((value?.version !== 1 && value?.version !== 2) || !Array.isArray(value.analyses)) {
    throw new Error(`${path}:1: version: expected a manifest of version 1 or 2 with "analyses"`);
  }
  const analyses = value.analyses as GalleryEntry[];
  if (value.version === 2) return { version: 2, analyses };
  return {
    version: 2,
    analyses: analyses.map((a) =>
      a.table && a.cells === undefined
        ? { ...a, cells: a.table.csv.replace(/\.csv$/, ".cells.jsonl") }
        : a
    ),
  };
}
