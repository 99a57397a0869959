/**
 * Jupyter display of a figure.
 *
 * @module
 */
import type { Displayable, MimeBundle } from "./display_table.ts";
import { renderSvg } from "./render_svg.ts";
import type { VegaLiteSpec } from "./types.ts";

/** Options of {@linkcode displayFigure}. */
export interface DisplayFigureOptions {
  /** Receives rendering warnings. Default: dropped. */
  onWarning?: (message: string) => void;
}

function plainText(spec: VegaLiteSpec): string {
  const title = spec.title as { text?: string; subtitle?: string[] } | string | undefined;
  const text = (typeof title === "string" ? title : title?.text ?? "Untitled figure")
    .replace(/\n/g, " ");
  const sub = typeof title === "object" && title.subtitle ? ` (${title.subtitle.join("; ")})` : "";
  const data = spec.data as { values?: unknown[] } | undefined;
  const n = Array.isArray(data?.values) ? `, ${data.values.length} data rows` : "";
  return `Figure: ${text}${sub} [Vega-Lite${n}]`;
}

/**
 * Render a figure for display in a Deno Jupyter notebook. The returned
 * object's `[Symbol.for("Jupyter.display")]()` gives `image/svg+xml` (rendered
 * here, headless: the fallback for nbconvert and static viewers), the spec
 * itself as `application/vnd.vegalite.v6+json` and
 * `application/vnd.vegalite.v5+json` (JupyterLab and VS Code draw it
 * interactively: tooltips with the exact values, click a legend entry or a
 * mark to highlight one series) and a `text/plain` line with the title and
 * subtitle. Under plain `deno run`, `String(x)` gives that line.
 *
 * @param spec The Vega-Lite spec; copied, not modified.
 * @param opts `onWarning` receives rendering warnings.
 * @returns A displayable object (await it: rendering is asynchronous).
 * @throws {Error} When the spec cannot be rendered.
 * @example
 * ```ts
 * import { barChart } from "@lib/report/mod.ts";
 *
 * const rows = [{ run: "bm25", measure: "Cov@10", value: 0.61 }];
 * await displayFigure(barChart(rows, { title: "Coverage", note: "offline backends: lexical judge" }));
 * ```
 */
export async function displayFigure(
  spec: VegaLiteSpec,
  opts: DisplayFigureOptions = {},
): Promise<Displayable> {
  const svg = await renderSvg(spec, opts);
  const copy = structuredClone(spec);
  const text = plainText(spec);
  const bundle = (): MimeBundle => ({
    "image/svg+xml": svg,
    "application/vnd.vegalite.v6+json": structuredClone(copy),
    "application/vnd.vegalite.v5+json": structuredClone(copy),
    "text/plain": text,
  });
  return { [Symbol.for("Jupyter.display")]: bundle, toString: () => text };
}
