/**
 * The analyze stage of an experiment: every analysis of the workspace, saved
 * under the experiment's folder.
 *
 * @module
 */
import type { AnalyzeStep, CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import { analyzeWorkspace, type WorkspaceAnalyses } from "./analyze_workspace.ts";
import { experimentAnalysisOptions } from "./experiment_analysis_options.ts";
import { experimentPipelines } from "./_experiment_pipelines.ts";
import { contextAnalyses, contextSettings } from "./context_analyses.ts";
import { saveAnalysis } from "./save_analysis.ts";
import { runGaps, withContextGapNote } from "./_context_gap_notes.ts";
import type { Analysis } from "./types.ts";
import { METHOD_ANALYSES } from "./method_sections.ts";
import { gridAnalysis } from "./grid_analysis.ts";

/** Options of {@linkcode analyzeStep}. */
export interface AnalyzeStepOptions {
  /** Environment for model names shown in backend notes. Default `Deno.env`. */
  env?: Record<string, string | undefined>;
  /** Notes of the analyses (left-out pipelines, skipped analyses). */
  onNote?: (message: string) => void;
  /** Receives the analyses when the stage runs. */
  onAnalyses?: (analyses: WorkspaceAnalyses) => void;
}

/**
 * The analyze stage's parameters and work for an experiment config, for
 * `cruxStages(config, { analyze })`.
 *
 * @param config The checked experiment config.
 * @param opts Environment and callbacks.
 * @returns The step: its fingerprinted parameters and its run function.
 * @example
 * ```ts
 * import { analyzeStep } from "@lib/analysis/mod.ts";
 * import { cruxStages, loadExperimentConfig } from "@lib/pipeline/mod.ts";
 * const config = await loadExperimentConfig("notebooks/configs/sample-offline.json");
 * const specs = await cruxStages(config, { analyze: analyzeStep(config) });
 * specs.at(-1)?.id; // "analyze"
 * ```
 */
export function analyzeStep(
  config: CruxExperimentConfig,
  opts: AnalyzeStepOptions = {},
): AnalyzeStep {
  const pipelines = experimentPipelines(config);
  const { runs: contextRuns, cutoffs: contextCutoffs } = contextSettings(config);
  return {
    params: {
      analysis: config.analysis ?? null,
      pipelines,
      contexts: { runs: contextRuns, cutoffs: contextCutoffs },
      // Whole sections: a changed method setting (buckets, weights, ...) redraws its analyses.
      methods: config.methods ?? {},
      ...(config.grid ? { grid: config.grid } : {}),
    },
    async run(ws) {
      const analyses = await analyzeWorkspace(
        ws,
        experimentAnalysisOptions(config, { env: opts.env, onNote: opts.onNote }),
      );
      // The retrieval contexts of the first runs at fixed depths, with the
      // oracle and empty references (the evaluator of crux eval and crux measure).
      const extra: Analysis[] = await contextAnalyses(ws, config, {
        judge: analyses.data.passageJudge,
      });
      for (const method of METHOD_ANALYSES) {
        const section = config.methods?.[method.key];
        if (section === undefined) continue;
        extra.push(
          ...await method.analyses(ws, { section, experiment: config.name, onNote: opts.onNote }),
        );
      }
      if (config.grid) {
        extra.push(
          await gridAnalysis(ws, config, { judge: analyses.data.passageJudge, env: opts.env }),
        );
      }
      const gaps = await runGaps(ws);
      for (const a of extra.map((x) => withContextGapNote(x, gaps))) {
        analyses.analyses.push(a);
        analyses.saved.push(await saveAnalysis(a, config.workspace));
      }
      opts.onAnalyses?.(analyses);
      return `${analyses.saved.length} tables and figures`;
    },
  };
}
