/**
 * The statistics stage of an experiment: the statistics its CRUX tables show,
 * computed from the stored measures with the analyses' settings and stored for
 * the analyze stage to read.
 *
 * @module
 */
import type { AnalyzeStep, CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import type { Analysis } from "./types.ts";
import { analysisParams } from "./analysis_params.ts";
import { experimentAnalysisOptions } from "./experiment_analysis_options.ts";
import { storeStatistics } from "./store_statistics.ts";

/**
 * The statistics stage's parameters and work for an experiment config, for
 * `experimentStages(config, { methods, statistics })`: fingerprinted by the analyses'
 * parameters, it stores the statistics of the tables the analyze stage writes.
 *
 * @param config The checked experiment config.
 * @param opts Environment (model names in backend labels), and the analyses of
 *   the experiment's methods, whose tables' statistics are stored too.
 * @returns The step: its parameters and its run function.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { analysisParams, statisticsStep } from "@lib/analysis/mod.ts";
 * import { loadExperimentConfigWith } from "@lib/pipeline/mod.ts";
 * const config = await loadExperimentConfigWith("notebooks/configs/sample-grid.json", []);
 * // Fingerprinted as the analyze stage is: a changed analysis setting runs it again.
 * assert.deepEqual(statisticsStep(config).params, analysisParams(config));
 * ```
 */
export function statisticsStep(
  config: CruxExperimentConfig,
  opts: {
    env?: Record<string, string | undefined>;
    methodAnalyses?: (ws: Workspace) => Promise<Analysis[]>;
  } = {},
): AnalyzeStep {
  return {
    params: analysisParams(config),
    async run(ws) {
      const options = experimentAnalysisOptions(config, { env: opts.env });
      const r = await storeStatistics(ws, { ...options, methodAnalyses: opts.methodAnalyses });
      return `${r.values} statistics` +
        (r.absent ? `; ${r.absent} absent (an input missing, or undefined)` : "");
    },
  };
}
