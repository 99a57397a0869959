/**
 * The parameters that decide an experiment's analyses, for the analyze
 * stage's fingerprint.
 *
 * @module
 */
import type { CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import { experimentPipelines } from "./_experiment_pipelines.ts";
import { contextSettings } from "./context_analyses.ts";

/**
 * What the analyses of an experiment config depend on: the analysis settings,
 * the pipelines, the context evaluation's runs and depths and the methods'
 * whole sections (a changed method setting redraws its analyses).
 *
 * @param config The checked experiment config.
 * @returns A JSON-ready object.
 * @example
 * ```ts
 * import { analysisParams } from "@lib/analysis/mod.ts";
 * import { loadExperimentConfigWith } from "@lib/pipeline/mod.ts";
 * // A config without method sections (those need the registry of lib/methods).
 * const config = await loadExperimentConfigWith("notebooks/configs/sample-grid.json", []);
 * JSON.stringify(analysisParams(config));
 * ```
 */
export function analysisParams(config: CruxExperimentConfig): Record<string, unknown> {
  const pipelines = experimentPipelines(config);
  const { runs: contextRuns, cutoffs: contextCutoffs } = contextSettings(config);
  return {
    analysis: config.analysis ?? null,
    pipelines,
    contexts: { runs: contextRuns, cutoffs: contextCutoffs },
    // Whole sections: a changed method setting (buckets, weights, ...) redraws its analyses.
    methods: config.methods ?? {},
    ...(config.grid ? { grid: config.grid } : {}),
  };
}
