/**
 * Private: paper-ready SVG: text converted to outlines with the bundled
 * fonts (a PDF build renders it the same everywhere) and the size in points.
 *
 * @module
 */
import { Resvg } from "@resvg/resvg-js";
import { fontFiles } from "./_fonts.ts";

/**
 * Convert every text of an SVG to paths (resvg with the bundled DejaVu fonts)
 * and state its width and height in `pt` (1 px of the figure = 1 pt), so a
 * 238 px wide figure is 3.3 in wide when included.
 */
export function outlineSvg(svg: string): string {
  const resvg = new Resvg(svg, {
    font: {
      fontFiles: fontFiles(),
      loadSystemFonts: false,
      defaultFontFamily: "DejaVu Sans",
      sansSerifFamily: "DejaVu Sans",
      monospaceFamily: "DejaVu Sans Mono",
    },
  });
  const out = resvg.toString();
  return out.replace(
    /^<svg width="([\d.]+)" height="([\d.]+)"/,
    (_m, w, h) => `<svg width="${w}pt" height="${h}pt"`,
  );
}
