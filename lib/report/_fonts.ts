/**
 * Private: the bundled DejaVu fonts used to rasterise figures (resvg has no
 * system fonts to fall back on). They come from the npm package
 * `dejavu-fonts-ttf` (DejaVu licence: free to use and redistribute).
 *
 * @module
 */
import { fileURLToPath } from "node:url";

const FILES = [
  "DejaVuSans.ttf",
  "DejaVuSans-Bold.ttf",
  "DejaVuSans-Oblique.ttf",
  "DejaVuSans-BoldOblique.ttf",
  "DejaVuSansMono.ttf",
];

let cached: string[] | undefined;

/** Absolute paths of the font files, checked to exist (resolved once). */
export function fontFiles(): string[] {
  if (cached) return cached;
  const paths = FILES.map((f) => fileURLToPath(import.meta.resolve(`dejavu-fonts-ttf/ttf/${f}`)));
  for (const p of paths) {
    try {
      Deno.statSync(p);
    } catch {
      throw new Error(
        `Cannot find the font file "${p}" needed to render PNG figures; install the npm package dejavu-fonts-ttf (run "deno install")`,
      );
    }
  }
  cached = paths;
  return paths;
}
