/**
 * The analyze stage of an experiment: every analysis of the workspace,
 * including each configured method's, saved under the experiment's folder.
 *
 * @module
 */
import type { AnalyzeStep, CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import { analysisParams, analyzeExperiment, type WorkspaceAnalyses } from "@lib/analysis/mod.ts";
import type { MethodDeclaration } from "@lib/methods/mod.ts";
import { configuredMethodAnalyses } from "./configured_method_analyses.ts";

/** Options of {@linkcode analyzeStep}. */
export interface AnalyzeStepOptions {
  /** The evaluation methods (a test's own registry). Default {@linkcode METHOD_REGISTRY}. */
  methods?: readonly MethodDeclaration[];
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
 * of every registry method whose section the config has, in registry order
 * (the comparison reads the headlines of the experiment's methods only).
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
        methodAnalyses: configuredMethodAnalyses(config, {
          methods: opts.methods,
          onNote: opts.onNote,
        }),
      });
      opts.onAnalyses?.(analyses);
      return `${analyses.saved.length} tables and figures`;
    },
  };
}
