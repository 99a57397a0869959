/**
 * Paper-style tables, Vega-Lite figures and Jupyter display.
 *
 * Tables: describe a table once ({@linkcode table}, or build one from metric
 * rows with {@linkcode metricTable} / from correlations with
 * {@linkcode correlationTable}) and render it as Markdown, LaTeX (booktabs),
 * CSV, HTML or plain text, with the best value of each column in bold and the
 * worst underlined; {@linkcode saveTable} writes `.csv`, `.md` and `.tex`.
 *
 * Figures: builders return Vega-Lite v6 specs with the data inline
 * ({@linkcode barChart}, {@linkcode topicChart}, {@linkcode ratingHeatmap},
 * {@linkcode correlationHeatmap}, {@linkcode scatterChart},
 * {@linkcode lineChart}); {@linkcode renderSvg} and {@linkcode renderPng}
 * render them headless with a bundled font; {@linkcode saveFigure} writes
 * `.svg`, `.png` and `.vl.json`.
 *
 * Offline results are labelled: put {@linkcode backendNote} in a table's
 * `notes` and a figure's `note`.
 *
 * @example
 * ```ts
 * import { backendNote, barChart, displayTable, metricTable, saveFigure } from "@lib/report/mod.ts";
 *
 * const rows = [
 *   { run: "bm25", topicId: "t1", measure: "Cov@10", value: 0.5 },
 *   { run: "dense", topicId: "t1", measure: "Cov@10", value: 0.7 },
 * ];
 * const note = backendNote({ judge: "lexical", generator: "extractive" });
 * displayTable(metricTable(rows, { notes: [note] })); // last expression of a notebook cell
 * const dir = await Deno.makeTempDir(); // notebooks use outputs/<experiment>/figures
 * await saveFigure(barChart(rows, { title: "Coverage", note }), `${dir}/coverage`);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
export type {
  CellValue,
  Direction,
  FigureOptions,
  Table,
  TableColumn,
  TableRow,
  VegaLiteSpec,
} from "./types.ts";
export { table } from "./table.ts";
export { tableMarkdown } from "./table_markdown.ts";
export { tableLatex, type TableLatexOptions } from "./table_latex.ts";
export { tableCsv, type TableCsvOptions } from "./table_csv.ts";
export { tableHtml, type TableHtmlOptions } from "./table_html.ts";
export { tableText, type TableTextOptions } from "./table_text.ts";
export { type SavedTable, saveTable } from "./save_table.ts";
export { metricTable, type MetricTableOptions } from "./metric_table.ts";
export {
  type CorrelationPair,
  correlationTable,
  type CorrelationTableOptions,
} from "./correlation_table.ts";
export { backendNote, type BackendNoteOptions, type Backends } from "./backend_note.ts";
export { barChart, type BarChartOptions } from "./bar_chart.ts";
export { topicChart, type TopicChartOptions } from "./topic_chart.ts";
export { ratingHeatmap, type RatingHeatmapOptions } from "./rating_heatmap.ts";
export { correlationHeatmap, type CorrelationHeatmapOptions } from "./correlation_heatmap.ts";
export { scatterChart, type ScatterChartOptions } from "./scatter_chart.ts";
export { lineChart, type LineChartOptions } from "./line_chart.ts";
export { renderSvg, type RenderSvgOptions } from "./render_svg.ts";
export { renderPng, type RenderPngOptions } from "./render_png.ts";
export { type SavedFigure, saveFigure, type SaveFigureOptions } from "./save_figure.ts";
export { type Displayable, displayTable, type MimeBundle } from "./display_table.ts";
export { displayFigure, type DisplayFigureOptions } from "./display_figure.ts";
export { type ArqueroTable, displayArquero, queryTable } from "./query_table.ts";
export { naturalCompare } from "./natural_compare.ts";
export {
  type Palette,
  RESERVED,
  SERIES_COLORS,
  type SeriesInput,
  type SeriesKind,
  seriesPalette,
  type SeriesStyle,
} from "./series_palette.ts";
export { experimentPalette, PALETTE_KEY } from "./experiment_palette.ts";
export { type GalleryEntry, recordGalleryEntry } from "./record_gallery_entry.ts";
export { buildGallery, type BuildGalleryOptions } from "./build_gallery.ts";
export { AnalysisFolderConflictError, guardAnalysisOutputs } from "./guard_analysis_outputs.ts";
