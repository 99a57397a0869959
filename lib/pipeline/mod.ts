/**
 * Orchestration: the experiment config, the declared stages of one experiment
 * (dataset, construct, select, retrieve, rerank, generate, judge, measure, the
 * evaluation methods' stages, analyze) and the runner that re-runs only what a
 * changed fingerprint requires. It sits above the stage areas (construct,
 * generate, judge, nuggets, keypoints, subq) and below analysis and report;
 * the evaluation methods and the analyze step are passed in from above.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   CRUX_STAGES,
 *   cruxStages,
 *   loadExperimentConfigWith,
 *   runStages,
 * } from "@lib/pipeline/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * // A config without method sections (those need the registry of lib/methods).
 * const config = await loadExperimentConfigWith("notebooks/configs/sample-grid.json", []);
 * const ws = await openWorkspace(await Deno.makeTempDir()); // normally config.workspace
 * const specs = await cruxStages(config);
 * const { ran } = await runStages(ws, specs, { order: CRUX_STAGES, until: "select" });
 * assert.deepEqual(ran, ["dataset", "construct", "select"]);
 * ws.close();
 * ```
 *
 * @module
 */
export {
  type AnalysisSettings,
  type CruxExperimentConfig,
  type CruxReleaseDataset,
  type ExperimentConfig,
  type ExperimentConfigOptions,
  type GridCell,
  type GridPrice,
  type GridSection,
  loadExperimentConfigWith,
  parseExperimentConfigWith,
  type SampleDataset,
} from "./experiment_config.ts";
export { parseConfigJson, readConfigText } from "./config_json.ts";
export {
  type AnalyzeStep,
  CRUX_STAGES,
  cruxStages,
  type CruxStagesOptions,
} from "./crux_stages.ts";
export { canonicalJson, paramChanges, stageFingerprint } from "./fingerprint.ts";
export {
  currentStage,
  type IncompleteStage,
  runStages,
  type RunStagesOptions,
  type RunStagesResult,
  type StageEvent,
  type StageOutcome,
  type StageSpec,
} from "./run_stages.ts";
export { type StageProgress, stageProgress, type StageProgressOptions } from "./stage_progress.ts";
export { listedOnce } from "./listed_once.ts";
export { RERANK_METHODS } from "./_check_runs.ts";
export { measureRuns, type MeasureRunsOptions } from "./measure_runs.ts";
export {
  clearMeasureValues,
  clearRunMeans,
  measureValues,
  type MeasureValuesOptions,
  type MeasureValuesResult,
  type MeasureValuesRun,
} from "./measure_values.ts";
export {
  MissingTokensError,
  type RelevanceSource,
  workspaceJudged,
  type WorkspaceJudgedOptions,
} from "./workspace_judged.ts";
export { storeMeasures } from "./store_measures.ts";
export type {
  BackendsContext,
  ExperimentMethod,
  MethodStageContext,
  MethodStages,
  OpenBackends,
} from "./method_stage.ts";
export { methodBackends } from "./method_backends.ts";
export { experimentHeadlines } from "./experiment_headlines.ts";
export {
  type MethodHeadline,
  methodScores,
  type MethodScoresOptions,
  type MethodScoresResult,
  type PresentMethod,
} from "./method_scores.ts";
export { type AvailableEvaluation, evaluateAvailable } from "./evaluate_available.ts";
export { type CruxSettings, cruxSettings } from "./crux_settings.ts";
export {
  CONTEXT_MEASURES,
  type ContextKey,
  contextMeasure,
  contextSource,
  type ContextSpec,
  type GenerationContexts,
  measureContexts,
  type MeasureContextsOptions,
  ORACLE_CONTEXT,
  scoreContexts,
} from "./measure_contexts.ts";
export { previousParams } from "./previous_params.ts";
export { rememberByFile } from "./_file_memo.ts";
