/**
 * Orchestration: the experiment config, the declared stages of one experiment
 * (the chain one method declares - CRUX's dataset, construct, select, retrieve,
 * rerank, generate, judge, measure -, the other evaluation methods' stages,
 * analyze) and the runner that re-runs only what a changed fingerprint
 * requires. It sits above the stage areas (construct, generate, judge, nuggets,
 * keypoints, subq) and below analysis and report; the evaluation methods and
 * the analyze step are passed in from above.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CRUX_STAGES, runStages, type StageSpec } from "@lib/pipeline/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * // The experiment's stages come from `experimentStages(config, { methods: METHOD_REGISTRY })`.
 * const specs: StageSpec[] = [
 *   { id: "a", stage: "dataset", version: 1, params: {}, deps: [], run: () => Promise.resolve("a") },
 *   { id: "b", stage: "construct", version: 1, params: {}, deps: ["a"], run: () => Promise.resolve("b") },
 * ];
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * assert.deepEqual((await runStages(ws, specs, { order: CRUX_STAGES })).ran, ["a", "b"]);
 * assert.deepEqual((await runStages(ws, specs, { order: CRUX_STAGES })).fresh, ["a", "b"]);
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
  type HumanStudySettings,
  loadExperimentConfigWith,
  parseExperimentConfigWith,
  type SampleDataset,
} from "./experiment_config.ts";
export { parseConfigJson, readConfigText } from "./config_json.ts";
export {
  type AnalyzeStep,
  CRUX_STAGES,
  experimentStages,
  type ExperimentStagesOptions,
} from "./experiment_stages.ts";
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
export {
  MissingTokensError,
  type RelevanceSource,
  workspaceJudged,
  type WorkspaceJudgedOptions,
} from "./workspace_judged.ts";
export { storeMeasures } from "./store_measures.ts";
export type {
  BackendsContext,
  ChainContext,
  ChainStages,
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
  contextKeyMeasure,
  contextMeasure,
  contextSource,
  type ContextSpec,
  ORACLE_CONTEXT,
  scoreContexts,
} from "./context_measures.ts";
export { previousParams } from "./previous_params.ts";
export { fileSha256, rememberByFile } from "./_file_memo.ts";
