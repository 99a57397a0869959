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
  figure?: { svg: string; png: string; spec: string };
}

/** The manifest file's content. */
export interface Manifest {
  version: 1;
  analyses: GalleryEntry[];
}

/** Read the manifest; an empty one when the file does not exist. */
export async function readManifest(outDir: string): Promise<Manifest> {
  const path = join(outDir, MANIFEST);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { version: 1, analyses: [] };
    throw e;
  }
  let value: Manifest;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}:1: not JSON (${(e as Error).message}); delete it and save again`);
  }
  if (value?.version !== 1 || !Array.isArray(value.analyses)) {
    throw new Error(`${path}:1: version: expected a manifest of version 1 with "analyses"`);
  }
  return value;
}
