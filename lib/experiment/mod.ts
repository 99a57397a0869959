/**
 * Experiments end to end: experiment folders, opening a workspace filled from
 * the sample, BM25 retrieval into the workspace, context evaluation with its
 * table and figures, and the demo.
 *
 * @module
 */
export { experimentDir, repoRoot, sampleDir } from "./paths.ts";
export { openExperiment, type OpenExperimentOptions } from "./open_experiment.ts";
export { retrieveBm25, type RetrieveBm25Options, type RetrieveSummary } from "./retrieve_bm25.ts";
export {
  type ContextCondition,
  type ContextEvaluationResult,
  evaluateContexts,
  type EvaluateContextsOptions,
} from "./context_evaluation.ts";
export { type ContextReport, contextReport, type ContextReportOptions } from "./context_report.ts";
export { type DemoOptions, type DemoResult, runDemo } from "./demo.ts";
export { fillTokenCounts } from "./fill_token_counts.ts";
