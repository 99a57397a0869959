/**
 * Private: the house style shared by every figure (paper sizes, font, colours,
 * title block, legends restricted to drawn series, linked highlighting).
 *
 * Sizes are in points (1 px of the spec = 1 pt = 1/72 in): a single-column
 * figure of an IR paper is 3.3 in = 238 pt wide, a double-column one 7 in =
 * 504 pt; `saveFigure` writes the SVG in `pt` and the PNG at 300 dpi.
 *
 * @module
 */
import type { FigureOptions, VegaLiteSpec } from "./types.ts";
import { textWidth } from "./_text_width.ts";
import { type Palette, seriesPalette } from "./series_palette.ts";

/** Vega-Lite schema URL of the specs the builders return. */
export const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";

/** The font family every figure uses; bundled for PNG rendering (see `_fonts.ts`). */
export const FONT = "DejaVu Sans";

/** Width of a single-column figure in points (3.3 in). */
export const SINGLE = 238;
/** Width of a double-column figure in points (7 in). */
export const DOUBLE = 504;
/** Most lines drawn in one panel before a chart switches to small multiples. */
export const MAX_LINES = 8;

/** Shared Vega-Lite config: paper font sizes, light grid, no chart border. */
export function config(): Record<string, unknown> {
  return {
    font: FONT,
    background: "white",
    padding: 4,
    view: { stroke: null },
    title: {
      fontSize: 10,
      fontWeight: "bold",
      subtitleFontSize: 8,
      subtitleColor: "#444444",
      anchor: "start",
      offset: 6,
      lineBreak: "\n",
    },
    axis: {
      labelFontSize: 8,
      titleFontSize: 9,
      titleFontWeight: "normal",
      gridColor: "#e6e6e6",
      domainColor: "#555555",
      tickColor: "#555555",
      labelOverlap: "parity",
    },
    legend: {
      labelFontSize: 8,
      titleFontSize: 8,
      titleFontWeight: "normal",
      symbolSize: 40,
      symbolOpacity: 1,
      labelLimit: 150,
      rowPadding: 2,
    },
    header: { labelFontSize: 8, titleFontSize: 9 },
  };
}

/**
 * Break text into lines at most `width` points wide (DejaVu Sans at `size`) at
 * spaces, balanced: as few lines as the greedy break needs, made as even as
 * possible, so no word is left alone on a last line when it can be avoided.
 */
export function wrap(text: string, width: number, size: number, bold = false): string[] {
  const lines = greedy(text, width, size, bold);
  if (lines.length < 2) return lines;
  // The narrowest width that still needs no more lines (halving the interval).
  let lo = 0;
  let hi = width;
  for (let i = 0; i < 20; i++) {
    const mid = (lo + hi) / 2;
    if (greedy(text, mid, size, bold).length <= lines.length) hi = mid;
    else lo = mid;
  }
  return greedy(text, hi, size, bold);
}

function greedy(text: string, width: number, size: number, bold: boolean): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && textWidth(`${line} ${word}`, size, bold) > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

/** The title block: title, then the subtitle and note lines, wrapped to `width` points. */
export function titleBlock(opts: FigureOptions, width = DOUBLE): Record<string, unknown> {
  if (typeof opts.title !== "string" || opts.title.trim() === "") {
    throw new TypeError(
      `Cannot build figure: the title is ${JSON.stringify(opts.title)}; give a non-empty title`,
    );
  }
  const w = Math.max(150, width) * 0.9; // room for the rasteriser's wider shaping
  const lines = [opts.subtitle, opts.note].filter((s): s is string => !!s)
    .flatMap((s) => wrap(s, w, 8));
  // A string with line breaks (config title.lineBreak), so `title.text` stays a string.
  const text = wrap(opts.title, w, 10, true).join("\n");
  return lines.length > 0 ? { text, subtitle: lines } : { text };
}

/** Assemble a top-level spec with schema, title (wrapped to `width`), inline data and config. */
export function topLevel(
  opts: FigureOptions,
  values: Record<string, unknown>[],
  body: Record<string, unknown>,
  width = DOUBLE,
): VegaLiteSpec {
  return {
    $schema: SCHEMA,
    title: titleBlock(opts, width),
    data: { values },
    ...body,
    config: config(),
  };
}

/**
 * Colour and shape encodings of a series field: the scale's domain and range
 * are the whole palette (identical in every figure of an experiment), the
 * legend lists only the series drawn, in palette order.
 */
export function seriesEncodings(
  field: string,
  drawn: readonly string[],
  title: string | null,
  palette?: Palette,
  legendBelow = false,
): { color: Record<string, unknown>; shape: Record<string, unknown>; palette: Palette } {
  const p = seriesPalette(drawn, palette);
  const domain = p.order;
  const shown = domain.filter((s) => drawn.includes(s));
  const legend = legendBelow
    ? { values: shown, title, orient: "bottom", columns: 3, labelLimit: 140 }
    : { values: shown, title };
  return {
    palette: p,
    color: {
      field,
      type: "nominal",
      title,
      scale: { domain, range: domain.map((s) => p.series[s].color) },
      legend,
    },
    shape: {
      field,
      type: "nominal",
      title,
      scale: { domain, range: domain.map((s) => p.series[s].shape) },
      legend,
    },
  };
}

/** A point selection bound to the legend and to clicks: highlights one series across layers and panels. */
export function focusParam(field: string): Record<string, unknown> {
  return { name: "focus", select: { type: "point", fields: [field], on: "click" }, bind: "legend" };
}

/** Opacity that dims every series but the selected one (all opaque when nothing is selected). */
export function focusOpacity(on = 1, off = 0.15): Record<string, unknown> {
  return { condition: { param: "focus", value: on, empty: true }, value: off };
}

/**
 * Copy the given fields of each record, checking that `numeric` fields hold
 * finite numbers and `text` fields hold strings or numbers.
 */
export function pick(
  what: string,
  rows: readonly object[],
  fields: { numeric?: string[]; text?: string[] },
): Record<string, unknown>[] {
  return (rows as readonly Record<string, unknown>[]).map((r, i) => {
    const out: Record<string, unknown> = {};
    for (const f of fields.numeric ?? []) {
      const v = r[f];
      if (typeof v !== "number" || !Number.isFinite(v)) {
        throw new TypeError(
          `Cannot build ${what}: data row ${i + 1} field "${f}" is ${
            show(v)
          }; expected a finite number`,
        );
      }
      out[f] = v;
    }
    for (const f of fields.text ?? []) {
      const v = r[f];
      if (typeof v !== "string" && typeof v !== "number") {
        throw new TypeError(
          `Cannot build ${what}: data row ${i + 1} field "${f}" is ${show(v)}; expected a string`,
        );
      }
      out[f] = v;
    }
    return out;
  });
}

function show(v: unknown): string {
  return typeof v === "number" || v === undefined ? String(v) : JSON.stringify(v);
}

/** Distinct values of a field in order of first appearance (for `sort` arrays). */
export function distinct(rows: readonly Record<string, unknown>[], field: string): unknown[] {
  return [...new Set(rows.map((r) => r[field]))];
}

/** Distinct values of a field as strings, in order of first appearance. */
export function names(rows: readonly Record<string, unknown>[], field: string): string[] {
  return distinct(rows, field).map(String);
}

/**
 * Panels of one spec per value of the `_panel` field, `columns` to a row. A
 * panel shows its x axis labels only when no panel lies below it, so the
 * last row ends cleanly (no axis detached under an empty slot); the y axis is
 * titled in the first column only. Scales are shared.
 */
export function smallMultiples(
  panels: readonly string[],
  inner: Record<string, unknown> & { encoding: Record<string, Record<string, unknown>> },
  columns: number,
): Record<string, unknown> {
  return {
    concat: panels.map((panel, i) => {
      const bottom = i + columns >= panels.length;
      const first = i % columns === 0;
      const x = inner.encoding.x;
      const y = inner.encoding.y;
      return {
        ...inner,
        title: { text: panel, fontSize: 8, fontWeight: "normal", anchor: "middle", offset: 2 },
        transform: [{ filter: { field: "_panel", equal: panel } }],
        encoding: {
          ...inner.encoding,
          x: bottom ? x : {
            ...x,
            title: null,
            axis: { ...(x.axis as object), labels: false, ticks: false, title: null },
          },
          y: first ? y : { ...y, title: null },
        },
      };
    }),
    columns,
    spacing: { row: 8, column: 8 },
    resolve: { scale: { x: "shared", y: "shared" } },
  };
}
