/**
 * Orchestration: the chain of stages of one experiment (import, construct,
 * select, retrieve, generate, judge, measure) over one workspace. It sits above
 * the stage areas (construct, generate, judge) and below analysis and report.
 *
 * @example
 * ```ts
 * import { runExperiment } from "@lib/pipeline/mod.ts";
 * const workspace = await Deno.makeTempDir(); // e.g. "outputs/demo"
 * const r = await runExperiment({ workspace, dataset: { source: "sample" } });
 * r.reports.length;
 * ```
 *
 * @module
 */
export {
  type CruxReleaseDataset,
  type ExperimentConfig,
  type ExperimentEvent,
  type ExperimentResult,
  runExperiment,
  type RunExperimentOptions,
  type SampleDataset,
} from "./run_experiment.ts";
export { canonicalJson, paramChanges, stageFingerprint } from "./fingerprint.ts";
export {
  runStages,
  type RunStagesOptions,
  type RunStagesResult,
  type StageEvent,
  type StageSpec,
} from "./run_stages.ts";
export { measureRuns, type MeasureRunsOptions } from "./measure_runs.ts";
export {
  MissingTokensError,
  type RelevanceSource,
  workspaceJudged,
  type WorkspaceJudgedOptions,
} from "./workspace_judged.ts";
export { storeMeasures } from "./store_measures.ts";
export type { MethodStageContext, MethodStages } from "./method_stage.ts";
