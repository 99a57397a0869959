/**
 * The reranker grid table (the CRUX paper's Table 1 layout): per first stage,
 * the first stage alone and each reranked cell, with what the reranker cost.
 *
 * @module
 */
import { scatterChart, table, type TableColumn, type TableRow } from "@lib/report/mod.ts";
import type { GridMeasureRow, RerankUsageRow } from "@lib/store/mod.ts";
import type { Analysis, CellSource } from "./types.ts";

/** What {@linkcode gridTable} lays out. */
export interface GridTableInput {
  /** First stages in order, and the cells (`run`, `first`, `reranker`) in order. */
  grid: {
    first: readonly string[];
    cells: readonly { run: string; first: string; reranker: string }[];
  };
  /** The rerank stage's usage records (`readRerankUsage`). */
  usage: readonly RerankUsageRow[];
  /** Stored means of the runs and of their `rag-{run}` reports (`readGridMeasures`). */
  measures: readonly GridMeasureRow[];
  /** Judge of the context measures (passage ratings). Default: the only one stored. */
  judge?: string;
  /** Note lines added under the table (e.g. the backend note). */
  notes?: readonly string[];
}

/** One row of the grid: a first stage (reference) or a reranked cell. */
export interface GridRow {
  run: string;
  first: string;
  /** Reranker name, `null` for the first stage itself. */
  reranker: string | null;
  method: string | null;
  offline: boolean | null;
  calls: number | null;
  cached: number | null;
  tokens: number | null;
  wallMs: number | null;
  costUsd: number | null;
  /** Cov(Z) of the top-|P*| context (`Cov@oracle` of the run). */
  covZ: number | null;
  /** alpha-nDCG of the top-|P*| context (`alpha_nDCG@oracle`). */
  andcg: number | null;
  /** Cov(y) of the report generated from the context (`Cov` of `rag-{run}`, source report). */
  covY: number | null;
}

const STAND_IN: Record<string, string> = {
  lexical: "lexical = offline stand-in for the model rerankers (BM25 over each topic's " +
    "candidates, request expanded by its sub-questions; no model)",
  mmr: "mmr over TF-IDF vectors = offline stand-in for MMR over all-mpnet-base-v2 vectors",
};

/**
 * Lays out the grid: one group per first stage, its first row the first
 * stage alone (reranker "—", no calls) and then each reranked cell in
 * reranker order, with model calls (cache hits included), tokens (prompt +
 * completion), wall time of the rerank stage, cost (US dollars where the
 * model has a price; 0 for the offline rerankers), Cov(Z) and alpha-nDCG of
 * the top-|P*| context (the stored `Cov@oracle` and `alpha_nDCG@oracle` of
 * the run, by the passage judge) and Cov(y) of its report (stored `Cov` of
 * `rag-{run}`). A value not stored is an empty cell, and the notes say which.
 * The figure plots Cov(Z) and alpha-nDCG of each cell against its cost, or
 * its calls when no cell has a cost above 0, or its wall time when no cell
 * calls a model (the offline grid).
 *
 * @param input Grid, usage records, stored means, judge and notes.
 * @returns `grid_table`: the rows, the table and the figure.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gridTable } from "@lib/analysis/mod.ts";
 * const a = gridTable({
 *   grid: { first: ["bm25"], cells: [{ run: "bm25+lexical", first: "bm25", reranker: "lexical" }] },
 *   usage: [],
 *   measures: [],
 * });
 * assert.deepEqual(a.data.rows.map((r) => r.run), ["bm25", "bm25+lexical"]);
 * ```
 */
export function gridTable(input: GridTableInput): Analysis<{ rows: GridRow[] }> {
  const judges = [
    ...new Set(input.measures.filter((m) => m.source === "selection").map((m) => m.judge)),
  ];
  const judge = input.judge ?? (judges.length === 1 ? judges[0] : undefined);
  const row = (run: string, measure: string, source: string, byJudge: boolean) =>
    input.measures.find((m) =>
      m.run === run && m.measure === measure && m.source === source &&
      (!byJudge || m.judge === judge)
    );
  const mean = (run: string, measure: string, source: string, byJudge: boolean) =>
    row(run, measure, source, byJudge)?.value ?? null;
  // The stored mean each measure cell shows, or why it is blank.
  const sources: CellSource[] = [];
  const cellOf = (
    run: string,
    column: string,
    at: [run: string, measure: string, source: string, byJudge: boolean],
  ) => {
    const m = row(...at);
    sources.push(
      m
        ? {
          row: run,
          column,
          key: { run: m.run, source: m.source, judge: m.judge, measure: m.measure, topicId: "all" },
        }
        : { row: run, column, reason: `no stored mean of ${at[1]} for ${at[0]}` },
    );
  };
  const usage = new Map(input.usage.map((u) => [u.run, u]));
  const rows: GridRow[] = [];
  for (const first of input.grid.first) {
    const runs = [
      { run: first, reranker: null as string | null },
      ...input.grid.cells.filter((c) => c.first === first),
    ];
    for (const { run, reranker } of runs) {
      cellOf(run, "covZ", [run, "Cov@oracle", "selection", true]);
      cellOf(run, "andcg", [run, "alpha_nDCG@oracle", "selection", true]);
      cellOf(run, "covY", [`rag-${run}`, "Cov", "report", false]);
      const u = reranker === null ? undefined : usage.get(run);
      const known = reranker === null || u !== undefined;
      rows.push({
        run,
        first,
        reranker,
        method: u?.method ?? null,
        offline: u?.offline ?? null,
        // A first stage has no reranker: no cost was measured, so its cells are
        // blank (with a note), never a 0 that reads as a free reranker.
        calls: reranker === null ? null : u?.calls ?? null,
        cached: reranker === null ? null : u?.cached ?? null,
        tokens: reranker === null
          ? null
          : u && u.promptTokens !== null && u.completionTokens !== null
          ? u.promptTokens + u.completionTokens
          : null,
        wallMs: u?.wallMs ?? null,
        costUsd: reranker === null ? null : known ? u!.costUsd : null,
        covZ: mean(run, "Cov@oracle", "selection", true),
        andcg: mean(run, "alpha_nDCG@oracle", "selection", true),
        covY: mean(`rag-${run}`, "Cov", "report", false),
      });
    }
  }
  const columns: TableColumn[] = [
    { key: "reranker", label: "Reranker" },
    { key: "calls", label: "Calls", decimals: 0, group: "Reranker cost" },
    { key: "tokens", label: "Tokens", decimals: 0, group: "Reranker cost" },
    { key: "time", label: "Time (s)", decimals: 2, group: "Reranker cost" },
    { key: "cost", label: "Cost ($)", decimals: 4, group: "Reranker cost" },
    { key: "covZ", label: "Cov(Z)", direction: "higher", group: "Context" },
    { key: "andcg", label: "α-nDCG", direction: "higher", group: "Context" },
    { key: "covY", label: "Cov(y)", direction: "higher", group: "Report" },
  ];
  const tableRows: TableRow[] = rows.map((r) => ({
    label: r.run,
    group: r.first,
    values: {
      reranker: r.reranker === null
        ? "— (first stage)"
        : r.offline && r.method !== null && STAND_IN[r.method] && r.calls === 0
        ? `${r.reranker} (offline stand-in)`
        : r.reranker,
      calls: r.calls,
      tokens: r.tokens,
      time: r.wallMs === null ? null : r.wallMs / 1000,
      cost: r.costUsd,
      covZ: r.covZ,
      andcg: r.andcg,
      covY: r.covY,
    },
  }));
  const notes: string[] = [...(input.notes ?? [])];
  const methods = new Set(rows.filter((r) => r.offline).map((r) => r.method!));
  for (const m of Object.keys(STAND_IN)) if (methods.has(m)) notes.push(STAND_IN[m]);
  notes.push(
    "Calls: model requests of the reranker (cache hits included: what the cell costs run alone); " +
      "tokens: prompt + completion as the endpoint reported them; time: wall time of the rerank " +
      "stage when it last ran; cost: US dollars from the configured prices per million tokens.",
  );
  for (const u of input.usage) {
    const fell = u.counts.fallback ?? 0;
    if (fell > 0) {
      notes.push(
        `FALLBACK: ${u.run} (${u.method}) decided ${fell} ${
          u.method === "first-token" ? "window(s)" : "comparison(s)"
        } by the generated text: the endpoint returned no log-probabilities.`,
      );
    }
  }
  if (rows.some((r) => r.reranker === null)) {
    notes.push("First stages have no reranker: their reranker cost cells are blank.");
  }
  const cached = rows.reduce((n, r) => n + (r.cached ?? 0), 0);
  if (cached) notes.push(`${cached} of the calls were answered from the call cache.`);
  const missing = (what: string, pick: (r: GridRow) => unknown) => {
    const names = rows.filter((r) => pick(r) === null).map((r) => r.run);
    if (names.length) notes.push(`No ${what} for: ${names.join(", ")} (empty cells).`);
  };
  missing("usage record (rerank stage not run)", (r) => (r.reranker === null ? 0 : r.calls));
  missing("token counts (the endpoint reported none)", (r) => (r.calls === null ? 0 : r.tokens));
  missing("price for the model", (r) => (r.calls === null ? 0 : r.costUsd));
  missing("stored Cov@oracle", (r) => r.covZ);
  missing("stored alpha_nDCG@oracle", (r) => r.andcg);
  missing("judged report (Cov of rag-{run})", (r) => r.covY);
  if (judge) {
    notes.push(`Cov(Z) and α-nDCG of the top-|P*| context by the ${judge} passage ratings.`);
  } else {notes.push(
      `Passage judges stored: ${judges.join(", ") || "none"}; no single judge to read.`,
    );}
  const cells = rows.filter((r) => r.reranker !== null);
  const axis = cells.some((r) => (r.costUsd ?? 0) > 0)
    ? { key: "cost", title: "cost per cell (US dollars)", of: (r: GridRow) => r.costUsd }
    : cells.some((r) => (r.calls ?? 0) > 0)
    ? { key: "calls", title: "model calls per cell", of: (r: GridRow) => r.calls }
    : {
      key: "time",
      title: "wall time per cell (s)",
      of: (r: GridRow) => r.wallMs === null ? null : r.wallMs / 1000,
    };
  const points = rows.flatMap((r) =>
    ([["Cov(Z)", r.covZ], ["α-nDCG", r.andcg]] as const)
      .filter(([, v]) => v !== null && axis.of(r) !== null)
      .map(([measure, value]) => ({
        run: r.run,
        reranker: r.reranker ?? "— (first stage)",
        measure,
        value: value as number,
        [axis.key]: axis.of(r) as number,
      }))
  );
  const figure = points.length
    ? scatterChart(points, {
      title: `Cov(Z) and α-nDCG against ${axis.title}`,
      subtitle: `${cells.length} cells over ${input.grid.first.length} first stages; ` +
        (axis.key === "time"
          ? "no cell calls a model; first stages not shown (no rerank stage)"
          : "first stages not shown (no reranker, no cost)"),
      x: axis.key,
      y: "value",
      color: "reranker",
      colorTitle: "reranker",
      label: "run",
      facet: "measure",
      fit: false,
      xTitle: axis.title,
      yTitle: "value at top-|P*|",
      note: input.notes?.[0],
    })
    : undefined;
  return {
    name: "grid_table",
    cells: sources,
    data: { rows },
    table: table({
      caption: "First stages x rerankers: reranker cost and context and report coverage",
      rowHeader: "Run",
      columns,
      rows: tableRows,
      notes,
      unmarkedGroups: [],
    }),
    ...(figure ? { figure } : {}),
  };
}
