/**
 * Saving a figure as SVG, PNG and Vega-Lite JSON.
 *
 * @module
 */
import { refreshGallery } from "./_refresh_gallery.ts";
import { dirname } from "node:path";
import { writeAtomic } from "@lib/formats/mod.ts";
import { outlineSvg } from "./_outline.ts";
import { renderPng } from "./render_png.ts";
import { renderSvg } from "./render_svg.ts";
import type { VegaLiteSpec } from "./types.ts";

/** Paths written by {@linkcode saveFigure}. */
export interface SavedFigure {
  svg: string;
  png: string;
  spec: string;
}

/** Options of {@linkcode saveFigure}. */
export interface SaveFigureOptions {
  /** PNG resolution in dots per inch (the figure's units are points). Default 300. */
  dpi?: number;
  /** PNG zoom factor; overrides `dpi` when given. */
  scale?: number;
  /** Keep the SVG's text as text instead of outlines. Default false. */
  keepText?: boolean;
  /** Receives rendering warnings. Default: dropped. */
  onWarning?: (message: string) => void;
  /**
   * Rebuild the experiment's gallery when saving into `<outDir>/figures/`
   * and `<outDir>/index.html` exists. Default true.
   */
  gallery?: boolean;
}

/**
 * Render a Vega-Lite spec and write `basePath + ".svg"`, `".png"` and
 * `".vl.json"` (the spec, pretty-printed). The figure's units are points, so
 * the SVG states its size in `pt` (a single-column figure is 3.3 in wide)
 * with its text converted to outlines of the bundled font (a PDF build
 * renders it identically), and the PNG is rendered at 300 dpi. Everything is
 * rendered before the
 * first write; each file is written atomically (temporary file, then rename);
 * missing parent folders are created.
 *
 * @param spec The Vega-Lite spec; not modified.
 * @param basePath Path without extension, e.g. `outputs/exp1/figures/coverage`.
 * @param opts `dpi` (default 300), `scale`, `keepText`, `onWarning`.
 * @returns The three paths written.
 * @throws {Error} When the spec cannot be rendered or a file cannot be written.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { barChart } from "@lib/report/mod.ts";
 *
 * const rows = [{ run: "bm25", measure: "Cov@10", value: 0.61 }];
 * const dir = await Deno.makeTempDir(); // notebooks use outputs/<experiment>/figures
 * const paths = await saveFigure(barChart(rows, { title: "Coverage" }), `${dir}/coverage`);
 * assert.equal(paths.png, `${dir}/coverage.png`);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function saveFigure(
  spec: VegaLiteSpec,
  basePath: string,
  opts: SaveFigureOptions = {},
): Promise<SavedFigure> {
  const text = await renderSvg(spec, { onWarning: opts.onWarning });
  const png = renderPng(text, { scale: opts.scale ?? (opts.dpi ?? 300) / 72 });
  const svg = opts.keepText ? text : outlineSvg(text);
  const files: SavedFigure = {
    svg: `${basePath}.svg`,
    png: `${basePath}.png`,
    spec: `${basePath}.vl.json`,
  };
  await Deno.mkdir(dirname(basePath), { recursive: true });
  await writeAtomic(files.svg, svg);
  await writeAtomic(files.png, png);
  await writeAtomic(files.spec, JSON.stringify(spec, null, 2) + "\n");
  if (opts.gallery ?? true) await refreshGallery(basePath, "figures");
  return files;
}
