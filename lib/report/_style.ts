/**
 * Private: the house style shared by every figure (font, sizes, colours, title block).
 *
 * @module
 */
import type { FigureOptions, VegaLiteSpec } from "./types.ts";

/** Vega-Lite schema URL of the specs the builders return. */
export const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";

/** The font family every figure uses; bundled for PNG rendering (see `_fonts.ts`). */
export const FONT = "DejaVu Sans";

/**
 * Okabe-Ito colours first (distinguishable with colour-vision deficiencies and
 * in greyscale print, ordered for contrast between neighbours), then eight
 * darker colours of Paul Tol's schemes, so that figures with up to 16
 * conditions (pipelines plus references) never reuse a colour.
 */
export const PALETTE = [
  "#0072B2",
  "#E69F00",
  "#009E73",
  "#D55E00",
  "#CC79A7",
  "#56B4E9",
  "#000000",
  "#F0E442",
  "#882255",
  "#117733",
  "#332288",
  "#999933",
  "#AA4499",
  "#44AA99",
  "#661100",
  "#888888",
];

/** Shared Vega-Lite config: font, sizes, light grid, no chart border. */
export function config(): Record<string, unknown> {
  return {
    font: FONT,
    background: "white",
    padding: 8,
    view: { stroke: null },
    title: {
      fontSize: 14,
      fontWeight: "bold",
      subtitleFontSize: 11,
      subtitleColor: "#444444",
      anchor: "start",
      offset: 8,
    },
    axis: {
      labelFontSize: 11,
      titleFontSize: 12,
      titleFontWeight: "normal",
      gridColor: "#e6e6e6",
      domainColor: "#555555",
      tickColor: "#555555",
    },
    legend: {
      labelFontSize: 11,
      titleFontSize: 11,
      titleFontWeight: "normal",
      symbolSize: 80,
      symbolOpacity: 1,
      labelLimit: 260,
    },
    header: { labelFontSize: 11, titleFontSize: 12 },
    range: { category: PALETTE },
  };
}

/** The title block: title, then the subtitle and note lines (when given). */
export function titleBlock(opts: FigureOptions): Record<string, unknown> {
  if (typeof opts.title !== "string" || opts.title.trim() === "") {
    throw new TypeError(
      `Cannot build figure: the title is ${JSON.stringify(opts.title)}; give a non-empty title`,
    );
  }
  const lines = [opts.subtitle, opts.note].filter((s): s is string => !!s);
  return lines.length > 0 ? { text: opts.title, subtitle: lines } : { text: opts.title };
}

/** Assemble a top-level spec with schema, title, inline data and config. */
export function topLevel(
  opts: FigureOptions,
  values: Record<string, unknown>[],
  body: Record<string, unknown>,
): VegaLiteSpec {
  return {
    $schema: SCHEMA,
    title: titleBlock(opts),
    data: { values },
    ...body,
    config: config(),
  };
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
