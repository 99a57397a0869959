/**
 * Private: keeping an experiment's gallery in step with files saved into it.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { buildGallery } from "./build_gallery.ts";

/**
 * After a figure or table was saved at `basePath` (`<outDir>/<folder>/<name>`):
 * when `<outDir>/index.html` exists (the folder is an experiment's with a
 * gallery), rebuild the gallery so it lists the new file.
 */
export async function refreshGallery(basePath: string, folder: "figures" | "tables") {
  const dir = dirname(basePath);
  if (basename(dir) !== folder) return;
  const outDir = dirname(dir);
  try {
    if (!(await Deno.stat(join(outDir, "index.html"))).isFile) return;
  } catch {
    return;
  }
  await buildGallery(outDir);
}
