/**
 * Headless SVG rendering of a Vega-Lite spec.
 *
 * @module
 */
import * as vega from "vega";
import * as vl from "vega-lite";
import { vegaTextWidth } from "./_text_width.ts";
import type { VegaLiteSpec } from "./types.ts";

// Measure text with the bundled font's metrics (Vega's headless estimate is 0.8 em a
// character, which makes titles and legends claim far more room than they use).
(vega as unknown as { textMetrics: { width: typeof vegaTextWidth } }).textMetrics.width =
  vegaTextWidth;

/** Options of {@linkcode renderSvg}. */
export interface RenderSvgOptions {
  /** Receives Vega-Lite and Vega warnings (default: dropped; lib code never prints). */
  onWarning?: (message: string) => void;
}

/**
 * Render a Vega-Lite spec to an SVG document: compile with Vega-Lite, then run
 * a headless Vega view (`renderer: "none"`) and serialise it. Text is measured
 * with the bundled DejaVu Sans metrics, so the layout matches the PNG. Text keeps the
 * spec's font family (the figure builders use DejaVu Sans, which
 * {@linkcode renderPng} bundles).
 *
 * @param spec A Vega-Lite spec with inline data; not modified.
 * @param opts `onWarning` receives warnings.
 * @returns The SVG markup (`<svg ...>...</svg>`).
 * @throws {Error} When the spec does not compile or the view fails to render;
 *   the message names the figure's title.
 * @example
 * ```ts
 * import { barChart } from "@lib/report/mod.ts";
 *
 * const rows = [{ run: "bm25", measure: "Cov@10", value: 0.61 }];
 * const svg = await renderSvg(barChart(rows, { title: "Coverage" }));
 * ```
 */
export async function renderSvg(spec: VegaLiteSpec, opts: RenderSvgOptions = {}): Promise<string> {
  const warn = opts.onWarning ?? (() => {});
  const logger = vega.logger(vega.Warn, undefined, (_method, _level, args) => {
    warn(args.map(String).join(" "));
  });
  const title = describe(spec);
  let view: vega.View;
  try {
    const compiled = vl.compile(structuredClone(spec) as unknown as vl.TopLevelSpec, { logger });
    view = new vega.View(vega.parse(compiled.spec), { renderer: "none", logger });
  } catch (e) {
    throw new Error(
      `Cannot compile figure ${title}: ${
        (e as Error).message
      }; check the spec's fields and encodings`,
      { cause: e },
    );
  }
  try {
    // Gradient and clip ids count up per process; from 0 for each figure, the same figure
    // gives the same bytes whichever process draws it.
    vega.resetSVGDefIds();
    return await view.toSVG();
  } catch (e) {
    throw new Error(`Cannot render figure ${title}: ${(e as Error).message}`, { cause: e });
  } finally {
    view.finalize();
  }
}

function describe(spec: VegaLiteSpec): string {
  const t = spec.title;
  const text = typeof t === "string" ? t : (t as { text?: unknown } | undefined)?.text;
  return typeof text === "string" ? `"${text}"` : "(untitled)";
}
