/**
 * Types shared by the report area: the table model rendered by the table
 * renderers, and the plain-JSON Vega-Lite spec type returned by the figure
 * builders.
 *
 * @module
 */

/**
 * Which value of a column is best: `higher` (larger is better, e.g. coverage),
 * `lower` (smaller is better, e.g. a latency) or `none` (no best/worst marking).
 */
export type Direction = "higher" | "lower" | "none";

/** A table cell: a number (formatted by its column), a string (shown as is) or null (missing). */
export type CellValue = number | string | null;

/** One column of a table. */
export interface TableColumn {
  /** Key of the value in each row's `values`. */
  key: string;
  /** Header text. */
  label: string;
  /** Group header spanning consecutive columns with the same group (e.g. `Retrieval`). */
  group?: string;
  /** Digits after the decimal point for numbers. Default 3. */
  decimals?: number;
  /** Custom number formatter; overrides `decimals` for display (not for CSV). */
  format?: (value: number) => string;
  /** Which value is best; default `none` (no marking). */
  direction?: Direction;
}

/** One row of a table. */
export interface TableRow {
  /** Row label (first column), e.g. a run or pipeline name. */
  label: string;
  /**
   * Optional row group. Consecutive rows of a group are separated from other
   * groups by a rule. Rows in the group `reference` (or any group listed in the
   * table's `unmarkedGroups`) are never marked best or worst, and do not take
   * part in finding the best and worst values.
   */
  group?: string;
  /** Cell values by column key; a missing key is a null cell. */
  values: Record<string, CellValue>;
}

/** A table: columns, rows, a caption and notes (e.g. which backends produced the values). */
export interface Table {
  columns: TableColumn[];
  rows: TableRow[];
  /** Header of the row-label column. Default `Run`. */
  rowHeader?: string;
  /** Caption (LaTeX `\caption`, HTML `<caption>`, first line of Markdown/text output). */
  caption?: string;
  /** LaTeX label, e.g. `tab:coverage`. */
  label?: string;
  /**
   * Note lines printed under the table, e.g. `offline backends: lexical judge,
   * extractive generator` (see {@linkcode backendNote}).
   */
  notes?: string[];
  /** Row groups excluded from best/worst marking. Default `["reference"]`. */
  unmarkedGroups?: string[];
}

import type { Palette } from "./series_palette.ts";

/** A Vega-Lite spec as a plain JSON object (data inline). */
export type VegaLiteSpec = { $schema: string } & Record<string, unknown>;

/** Options every figure builder takes. */
export interface FigureOptions {
  /** Figure title. */
  title: string;
  /** Optional subtitle line under the title. */
  subtitle?: string;
  /** Optional note line (e.g. `offline backends: lexical judge`), shown under the subtitle. */
  note?: string;
  /** Plot width in points (1/72 in; 238 = single column, 504 = double column) (per facet or whole chart). Default depends on the chart. */
  width?: number;
  /** Plot height in pixels. Default depends on the chart. */
  height?: number;
  /**
   * Colours and shapes of the series (see `seriesPalette`, `experimentPalette`):
   * the same palette gives a series the same colour in every figure. Default:
   * assigned in order of appearance.
   */
  palette?: Palette;
}
