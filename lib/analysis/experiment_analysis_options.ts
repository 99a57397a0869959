/**
 * The `analyzeWorkspace` settings of an experiment config, shared by the
 * analyze stage and the notebooks that draw the CRUX analyses.
 *
 * @module
 */
import type { CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import type { AnalyzeWorkspaceOptions } from "./analyze_workspace.ts";
import { experimentBackends, experimentPipelines } from "./_experiment_pipelines.ts";

/**
 * The settings the analyze stage gives `analyzeWorkspace` for a config, so a
 * notebook that draws the CRUX analyses gets the same tables and figures,
 * saved under the experiment's folder.
 *
 * @param config The checked experiment config.
 * @param opts Environment (model names in backend notes) and a note callback.
 * @returns Options for `analyzeWorkspace`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { experimentAnalysisOptions } from "@lib/analysis/mod.ts";
 * import { loadExperimentConfigWith } from "@lib/pipeline/mod.ts";
 * // A config without method sections (those need the registry of lib/methods).
 * const config = await loadExperimentConfigWith("notebooks/configs/sample-grid.json", []);
 * // the config's retrieval runs, as it names no correlation runs of its own
 * assert.deepEqual(experimentAnalysisOptions(config).correlation?.runs, ["bm25", "dense"]);
 * ```
 */
export function experimentAnalysisOptions(
  config: CruxExperimentConfig,
  opts: { env?: Record<string, string | undefined>; onNote?: (message: string) => void } = {},
): AnalyzeWorkspaceOptions {
  return {
    ...config.analysis,
    correlation: {
      runs: (config.retrieve ?? [{ name: "bm25" }]).map((r) => r.name),
      ...config.analysis?.correlation,
    },
    pipelines: experimentPipelines(config),
    backends: experimentBackends(config, opts.env),
    outDir: config.workspace,
    onNote: opts.onNote,
  };
}
