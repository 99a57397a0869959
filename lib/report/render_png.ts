/**
 * PNG rasterisation of an SVG with the bundled fonts.
 *
 * @module
 */
import { Resvg } from "@resvg/resvg-js";
import { fontFiles } from "./_fonts.ts";

/** Options of {@linkcode renderPng}. */
export interface RenderPngOptions {
  /** Zoom factor: the PNG is `scale` times the SVG's size in pixels. Default 2. */
  scale?: number;
}

/**
 * Rasterise an SVG to PNG with resvg, using the bundled DejaVu fonts only
 * (system fonts are not loaded, so output is the same on every machine; any
 * family the SVG names falls back to DejaVu Sans).
 *
 * @param svg SVG markup, e.g. from {@linkcode renderSvg}.
 * @param opts `scale` (default 2).
 * @returns The PNG bytes.
 * @throws {RangeError} When `scale` is not a positive finite number.
 * @throws {Error} When the SVG cannot be parsed or the fonts are missing.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineChart, renderSvg } from "@lib/report/mod.ts";
 *
 * const spec = lineChart([{ run: "bm25", cutoff: 10, value: 0.6 }], { title: "Coverage" });
 * const png = renderPng(await renderSvg(spec), { scale: 2 });
 * assert.deepEqual([...png.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]); // the PNG signature, 0x89 "PNG"
 * ```
 */
export function renderPng(svg: string, opts: RenderPngOptions = {}): Uint8Array {
  const scale = opts.scale ?? 2;
  if (!(scale > 0 && Number.isFinite(scale))) {
    throw new RangeError(
      `Cannot render PNG: scale ${scale} is invalid; use a positive number such as 2`,
    );
  }
  let resvg: Resvg;
  try {
    resvg = new Resvg(svg, {
      fitTo: { mode: "zoom", value: scale },
      font: {
        fontFiles: fontFiles(),
        loadSystemFonts: false,
        defaultFontFamily: "DejaVu Sans",
        sansSerifFamily: "DejaVu Sans",
        serifFamily: "DejaVu Sans",
        cursiveFamily: "DejaVu Sans",
        fantasyFamily: "DejaVu Sans",
        monospaceFamily: "DejaVu Sans Mono",
      },
    });
  } catch (e) {
    throw new Error(
      `Cannot render PNG: the SVG does not parse (${
        (e as Error).message
      }); pass the output of renderSvg`,
      { cause: e },
    );
  }
  return new Uint8Array(resvg.render().asPng());
}
