/**
 * The analyze stage of an experiment: every analysis of the workspace,
 * including each configured method's, saved under the experiment's folder.
 *
 * @module
 */
import type { AnalyzeStep, CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import {
  type Analysis,
  analysisParams,
  analyzeExperiment,
  type WorkspaceAnalyses,
} from "@lib/analysis/mod.ts";
import { METHOD_HEADLINES, METHOD_REGISTRY } from "@lib/methods/mod.ts";

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
 * `experimentStages(config, { methods, analyze })`: the analyses of the workspace, then those
 * of every registry method whose section the config has, in registry order.
 *
 * @param config The checked experiment config.
 * @param opts Environment and callbacks.
 * @returns The step: its fingerprinted parameters and its run function.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { analyzeStep, loadExperimentConfig } from "@lib/experiment/mod.ts";
 * import { experimentStages } from "@lib/pipeline/mod.ts";
 * import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
 * const config = await loadExperimentConfig("notebooks/configs/sample-offline.json");
 * const specs = await experimentStages(config, {
 *   methods: METHOD_REGISTRY,
 *   analyze: analyzeStep(config),
 * });
 * assert.equal(specs.at(-1)?.id, "analyze");
 * ```
 */
export function analyzeStep(
  config: CruxExperimentConfig,
  opts: AnalyzeStepOptions = {},
): AnalyzeStep {
  return {
    params: analysisParams(config),
    async run(ws) {
      const analyses = await analyzeExperiment(ws, config, {
        env: opts.env,
        onNote: opts.onNote,
        methodAnalyses: async (ws) => {
          const out: Analysis[] = [];
          for (const method of METHOD_REGISTRY) {
            const section = config.methods?.[method.key];
            if (section === undefined || !method.analyses) continue;
            out.push(
              ...await method.analyses(ws, {
                section,
                experiment: config.name,
                headlines: METHOD_HEADLINES,
                onNote: opts.onNote,
              }),
            );
          }
          return out;
        },
      });
      opts.onAnalyses?.(analyses);
      return `${analyses.saved.length} tables and figures`;
    },
  };
}
