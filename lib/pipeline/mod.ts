/**
 * Orchestration: the experiment config, the declared stages of one experiment
 * (dataset, construct, select, retrieve, rerank, generate, judge, measure, the
 * evaluation methods' stages, analyze) and the runner that re-runs only what a
 * changed fingerprint requires. It sits above the stage areas (construct,
 * generate, judge, nuggets, keypoints, subq) and below analysis and report,
 * which supplies the analyze step.
 *
 * @example
 * ```ts
 * import { CRUX_STAGES, cruxStages, loadExperimentConfig, runStages } from "@lib/pipeline/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const config = await loadExperimentConfig("notebooks/configs/sample-offline.json");
 * const ws = await openWorkspace(await Deno.makeTempDir()); // normally config.workspace
 * const { ran } = await runStages(ws, await cruxStages(config), { order: CRUX_STAGES, until: "select" });
 * ran; // ["dataset", "construct", "select"]
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
  loadExperimentConfig,
  parseExperimentConfig,
  type SampleDataset,
} from "./experiment_config.ts";
export {
  type AnalyzeStep,
  CRUX_STAGES,
  cruxStages,
  type CruxStagesOptions,
} from "./crux_stages.ts";
export { METHODS } from "./methods.ts";
export { canonicalJson, paramChanges, stageFingerprint } from "./fingerprint.ts";
export {
  type IncompleteStage,
  runStages,
  type RunStagesOptions,
  type RunStagesResult,
  type StageEvent,
  type StageOutcome,
  type StageSpec,
} from "./run_stages.ts";
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
export type { MethodStageContext, MethodStages } from "./method_stage.ts";
export {
  METHOD_HEADLINES,
  type MethodHeadline,
  methodScores,
  type MethodScoresOptions,
  type MethodScoresResult,
  type PresentMethod,
} from "./method_scores.ts";
export { type CompareSection, type CompareStageContext, compareStages } from "./compare_stages.ts";
export { SUBQ_STAGES, type SubqSection } from "./subq_stages.ts";
export { NUGGET_STAGES, type NuggetsSection } from "./nugget_stages.ts";
export { type KeyPointSection, keypointStages } from "./keypoint_stages.ts";
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
