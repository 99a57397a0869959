/**
 * Experiments end to end: experiment folders, reading an experiment config
 * with the method registry, running it through the stages (with the analyze
 * step and each method's stages and analyses), a notebook's view of one
 * method, and the demo.
 *
 * @module
 */
export { experimentDir, repoRoot, sampleDir } from "./paths.ts";
export { type DemoOptions, type DemoResult, runDemo } from "./demo.ts";
export { loadExperimentConfig } from "./load_experiment_config.ts";
export { parseExperimentConfig } from "./parse_experiment_config.ts";
export {
  RUN_STAGES,
  runCruxExperiment,
  type RunCruxExperimentOptions,
  type RunCruxExperimentResult,
  type RunStage,
} from "./run_crux_experiment.ts";
export { analyzeStep, type AnalyzeStepOptions } from "./analyze_step.ts";
export { configuredMethodAnalyses } from "./configured_method_analyses.ts";
export { type MethodView, methodView, type MethodViewOptions } from "./method_view.ts";
