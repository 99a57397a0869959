/**
 * The statistics stage's work: every statistic the CRUX tables show (Kendall
 * tau between context and report measures, means, deviations and ranking
 * agreement across pipelines, Kendall tau between context measures over the
 * sampled contexts), computed from the stored measures and stored in
 * the workspace for the tables to read.
 *
 * @module
 */
import { type Workspace, writeStatistics } from "@lib/store/mod.ts";
import type { AnalyzeWorkspaceOptions } from "./analyze_workspace.ts";
import type { Analysis } from "./types.ts";
import { workspaceConditions } from "./_workspace_conditions.ts";
import { mainTable } from "./main_table.ts";
import { thresholdTable } from "./threshold_table.ts";
import { contextSizeTable } from "./context_size_table.ts";
import { metricCorrelations } from "./metric_correlations.ts";
import { computeStatistics } from "./compute_statistics.ts";

/** Options of {@linkcode storeStatistics}: the analysis settings, and the methods' analyses. */
export interface StoreStatisticsOptions extends AnalyzeWorkspaceOptions {
  /** The main table's baseline of paired tests, if any. */
  baseline?: string;
  /**
   * The analyses of the experiment's methods (as the analyze stage makes them):
   * the statistics their tables ask for are computed and stored too.
   */
  methodAnalyses?: (ws: Workspace) => Promise<Analysis[]>;
}

/** What {@linkcode storeStatistics} stored. */
export interface StoredStatistics {
  /** Statistics stored with a value. */
  values: number;
  /** Statistics stored without one (an input missing, or undefined on its inputs). */
  absent: number;
}

/**
 * Computes every statistic the CRUX tables of `analyzeWorkspace` show with the
 * same settings, and those the methods' tables ask for (`methodAnalyses`), from
 * the stored measure values they read, and replaces the
 * workspace's statistics with them. A statistic with an input that has no
 * stored value is stored absent, with the reason.
 *
 * @param ws The workspace (after the measure stages).
 * @param opts The analysis settings (as for `analyzeWorkspace`; files are not written), and
 *   the `baseline` condition of the main table's paired tests, if any (its bootstrap
 *   intervals of Cov(y) are always stored).
 * @returns How many statistics were stored with and without a value.
 * @example
 * ```ts
 * import { storeStatistics } from "@lib/analysis/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await storeStatistics(ws); // before the measure stages: every statistic absent, with why
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function storeStatistics(
  ws: Workspace,
  opts: StoreStatisticsOptions = {},
): Promise<StoredStatistics> {
  const { data, conditions } = await workspaceConditions(ws, opts);
  const common = { conditions, tau: opts.tau, w: opts.w };
  const tables: Analysis[] = [
    // With the intervals of Cov(y) (and p-values against a baseline, when named),
    // which the main table shows on request.
    mainTable(data, { ...common, ci: true, baseline: opts.baseline }),
    thresholdTable(data, { conditions, thresholds: opts.thresholds, w: opts.w }),
    contextSizeTable(data, { ...common, cutoffs: opts.cutoffs }),
  ];
  // The random-context correlations, over the runs the analyze stage correlates.
  const runs = opts.correlation?.runs?.filter((r) => data.runs.has(r)) ?? [...data.runs.keys()];
  if (runs.length) {
    tables.push(metricCorrelations(data, { ...opts.correlation, runs, tau: opts.tau }));
  }
  const methods = opts.methodAnalyses ? await opts.methodAnalyses(ws) : [];
  const rows = computeStatistics(
    [...tables, ...methods].flatMap((t) => t.statistics ?? []),
  );
  await writeStatistics(ws, rows);
  const values = rows.filter((r) => r.value !== null).length;
  return { values, absent: rows.length - values };
}
