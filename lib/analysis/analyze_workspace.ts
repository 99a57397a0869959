/**
 * Every CRUX analysis of one workspace in one call.
 *
 * @module
 */
import { type Backends, experimentPalette } from "@lib/report/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import type { Analysis, CruxData } from "./types.ts";
import type { AnalysisSettings } from "@lib/pipeline/mod.ts";
import { workspaceConditions } from "./_workspace_conditions.ts";
import { runGaps, withContextGapNote } from "./_context_gap_notes.ts";
import type { PipelineSpec } from "./resolve_conditions.ts";
import { generationOverview } from "./generation_overview.ts";
import { reportScores } from "./report_scores.ts";
import { mainTable } from "./main_table.ts";
import { thresholdTable } from "./threshold_table.ts";
import { contextSizeTable } from "./context_size_table.ts";
import { metricCorrelations } from "./metric_correlations.ts";
import { topicCoverage } from "./topic_coverage.ts";
import { saveAnalysis, type SavedAnalysis } from "./save_analysis.ts";
import { withStoredCaveats } from "./stored_caveats.ts";
import { cellTopicSets } from "./cell_topic_sets.ts";
import { conditionAliases } from "./run_palette.ts";
import { rerankFallbacks, withRerankFallbackNote } from "./_rerank_fallback_notes.ts";

/** Options of {@linkcode analyzeWorkspace}. */
export interface AnalyzeWorkspaceOptions extends AnalysisSettings {
  /** Where `tables/` and `figures/` go (normally `outputs/<experiment>`). Default: the workspace folder. */
  outDir?: string;
  /** Pipelines, in order; those without reports are left out (with a note). Default: all found. */
  pipelines?: readonly PipelineSpec[];
  /** Backend labels merged over the inferred ones (e.g. `{ embedder: "tfidf" }`). */
  backends?: Backends;
  /** Write the files. Default true. */
  save?: boolean;
  /** Notes worth telling the user (left-out pipelines, skipped analyses). */
  onNote?: (message: string) => void;
}

/** Result of {@linkcode analyzeWorkspace}. */
export interface WorkspaceAnalyses {
  data: CruxData;
  /** In order: generation overview, report scores, main table, thresholds, context sizes, correlations, topic coverage. */
  analyses: Analysis[];
  saved: SavedAnalysis[];
}

/**
 * Loads the workspace data and runs every analysis of this area with the
 * given settings — the report overview and scores, the main table, the
 * threshold table, the context-size table, the random-context correlation
 * heatmap and the per-topic coverage (with the human coverage the
 * `measure:human` stage stored from the `human` file, or else from the
 * workspace's `human` ratings of reports when another judge
 * rated the reports) — then saves each table and figure under `outDir`.
 *
 * @param ws An open workspace after generation and judging.
 * @param opts Analysis settings (`tau` 3, `w` 0.5, thresholds, cutoffs, correlation, human), pipelines, backends, `outDir`, `save`.
 * @returns The data, the analyses and the files written.
 * @throws {RangeError} As `loadCruxData` (no passage ratings) or when named runs are missing.
 * @example
 * ```ts
 * import { analyzeWorkspace } from "@lib/analysis/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const { saved } = await analyzeWorkspace(ws, { outDir: dir }); // the workspace's folder, outputs/<experiment>
 * saved.map((s) => s.name); // ["generation_overview", "report_scores", "main_table", ...]
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function analyzeWorkspace(
  ws: Workspace,
  opts: AnalyzeWorkspaceOptions = {},
): Promise<WorkspaceAnalyses> {
  const { data, conditions } = await workspaceConditions(ws, opts);
  // One colour and shape per condition for every figure of the experiment,
  // stored in the workspace so notebooks and later runs reuse it.
  // The generation and retrieval runs of a condition share its style.
  data.palette = await experimentPalette(ws, [
    ...conditions.map((c) => ({ name: c.label, kind: c.kind })),
    ...conditionAliases(conditions),
  ]);
  const common = { conditions, tau: opts.tau, w: opts.w };
  const analyses: Analysis[] = [
    generationOverview(data, { conditions, tau: opts.tau }),
    reportScores(data, common),
    mainTable(data, common),
    thresholdTable(data, { conditions, thresholds: opts.thresholds, w: opts.w }),
    contextSizeTable(data, { ...common, cutoffs: opts.cutoffs }),
  ];
  const runs = opts.correlation?.runs?.filter((r) => data.runs.has(r)) ?? [...data.runs.keys()];
  if (runs.length) {
    analyses.push(metricCorrelations(data, { ...opts.correlation, runs, tau: opts.tau }));
  } else opts.onNote?.("No retrieval run in the workspace; the metric correlations are skipped");
  // The human coverage is the stored one (`measure:human`: the `human` file, else the
  // workspace's `human` ratings of reports when another judge rated the reports).
  analyses.push(topicCoverage(data, common));
  // Every table that shows a run whose report contexts lacked passages says so.
  const gaps = await runGaps(ws);
  // ... and every table that shows a run reranked without log-probabilities.
  const fallbacks = await rerankFallbacks(ws);
  analyses.splice(
    0,
    analyses.length,
    ...analyses.map((a) => withRerankFallbackNote(withContextGapNote(a, gaps), fallbacks)),
  );
  // Each cell key names its stored row's topic set.
  const withTopicSets = await cellTopicSets(ws);
  analyses.splice(0, analyses.length, ...analyses.map(withTopicSets));
  const saved: SavedAnalysis[] = [];
  if (!(opts.save ?? true)) {
    // A view (e.g. a notebook on a read-only workspace): the stored caveats, nothing written.
    for (const [i, a] of analyses.entries()) {
      analyses[i] = await withStoredCaveats(ws, a, { write: false });
    }
  }
  if (opts.save ?? true) {
    // The notes of each table are stored as its caveats; the files show the stored ones.
    for (const [i, a] of analyses.entries()) {
      analyses[i] = await withStoredCaveats(ws, a);
      saved.push(await saveAnalysis(analyses[i], opts.outDir ?? ws.dir));
    }
  }
  return { data, analyses, saved };
}
