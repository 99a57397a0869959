/**
 * Every analysis of an experiment's workspace, saved under the experiment's
 * folder: the CRUX analyses, the context evaluation and the methods' tables
 * and figures the caller supplies.
 *
 * @module
 */
import type { CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import { analyzeWorkspace, type WorkspaceAnalyses } from "./analyze_workspace.ts";
import { experimentAnalysisOptions } from "./experiment_analysis_options.ts";
import { contextAnalyses } from "./context_analyses.ts";
import { saveAnalysis } from "./save_analysis.ts";
import { humanAgreementAnalyses } from "./human_agreement_analyses.ts";
import { withStoredCaveats } from "./stored_caveats.ts";
import { cellTopicSets } from "./cell_topic_sets.ts";
import { runGaps, withContextGapNote } from "./_context_gap_notes.ts";
import type { Analysis } from "./types.ts";
import { gridAnalysis } from "./grid_analysis.ts";
import { rerankFallbacks, withRerankFallbackNote } from "./_rerank_fallback_notes.ts";

/** Options of {@linkcode analyzeExperiment}. */
export interface AnalyzeExperimentOptions {
  /** Environment for model names shown in backend notes. Default `Deno.env`. */
  env?: Record<string, string | undefined>;
  /** Notes of the analyses (left-out pipelines, skipped analyses). */
  onNote?: (message: string) => void;
  /** The evaluation methods' tables and figures, appended after the context evaluation. */
  methodAnalyses?: (ws: Workspace) => Promise<Analysis[]>;
}

/**
 * Runs every analysis of an experiment config on its workspace and saves the
 * tables and figures under `config.workspace`.
 *
 * @param ws The experiment's workspace.
 * @param config The checked experiment config.
 * @param opts Environment, notes and the methods' analyses.
 * @returns The analyses and the files saved.
 * @example
 * ```ts
 * import { analyzeExperiment } from "@lib/analysis/mod.ts";
 * import { loadExperimentConfigWith } from "@lib/pipeline/mod.ts";
 * import { retrieveRun, selectRequired } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // the select and retrieve stages, in short
 * await ws.upsert("runs", await retrieveRun(ws, { name: "bm25", k: 100 }));
 * // A config without method sections (those need the registry of lib/methods).
 * const config = await loadExperimentConfigWith("notebooks/configs/sample-grid.json", []);
 * const { saved } = await analyzeExperiment(ws, { ...config, workspace: dir });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function analyzeExperiment(
  ws: Workspace,
  config: CruxExperimentConfig,
  opts: AnalyzeExperimentOptions = {},
): Promise<WorkspaceAnalyses> {
  const analyses = await analyzeWorkspace(
    ws,
    experimentAnalysisOptions(config, { env: opts.env, onNote: opts.onNote }),
  );
  // The retrieval contexts of the first runs at fixed depths, with the
  // oracle and empty references (the evaluator of crux eval and crux measure).
  const extra: Analysis[] = await contextAnalyses(ws, config, {
    judge: analyses.data.passageJudge,
  });
  if (opts.methodAnalyses) extra.push(...await opts.methodAnalyses(ws));
  // The human study's agreement, as the measure:human-agreement stage stored it.
  const study = config.analysis?.humanStudy;
  if (study) extra.push(...await humanAgreementAnalyses(ws, { run: study.run }));
  if (config.grid) {
    extra.push(
      await gridAnalysis(ws, config, { judge: analyses.data.passageJudge, env: opts.env }),
    );
  }
  const gaps = await runGaps(ws);
  const fallbacks = await rerankFallbacks(ws);
  const withTopicSets = await cellTopicSets(ws);
  for (
    const x of extra.map((x) =>
      withTopicSets(withRerankFallbackNote(withContextGapNote(x, gaps), fallbacks))
    )
  ) {
    // The notes of each table are stored as its caveats; the files show the stored ones.
    const a = await withStoredCaveats(ws, x);
    analyses.analyses.push(a);
    analyses.saved.push(await saveAnalysis(a, config.workspace));
  }
  return analyses;
}
