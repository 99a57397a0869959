/**
 * The CRUX analyses (Ju et al., controlled retrieval-augmented context
 * evaluation for long-form RAG, 2025), each reproducible from an experiment
 * workspace with one call and returning its data plus a paper-style table
 * and/or a Vega-Lite figure:
 *
 * - {@linkcode mainTable}: Cov(Z), alpha-nDCG, Cov(y), Den(Z), Den(y) per
 *   pipeline and dataset, with reference rows (direct prompting, oracle
 *   context P*, oracle result = human summary) and Kendall tau between the
 *   context and report measures across pipelines;
 * - {@linkcode thresholdTable}: tau = 3 vs 5 (mean, sd, ranking agreement);
 * - {@linkcode contextSizeTable}: Kendall tau of context measures at top-|P*|,
 *   10 and 20 against the report measures;
 * - {@linkcode metricCorrelations}: a heatmap of Kendall tau between context
 *   measures over seeded random contexts;
 * - {@linkcode topicCoverage}: per-topic report coverage with human labels
 *   ({@linkcode readHumanLabels}, {@linkcode humanReportLabels});
 * - {@linkcode generationOverview} and {@linkcode reportScores}: the reports
 *   against their budget, and Cov(y)/Den(y) per condition.
 *
 * {@linkcode loadCruxData} reads a workspace once ({@linkcode loadExperiment}
 * does so for an experiment config, with its conditions and human labels); {@linkcode saveAnalysis}
 * writes `tables/<name>.{csv,md,tex}` and `figures/<name>.{svg,png,vl.json}`;
 * {@linkcode analyzeWorkspace} runs and saves everything, and
 * {@linkcode analyzeExperiment} adds an experiment's context evaluation and
 * method analyses (the experiment area runs configs through the stages). Every
 * table and figure names the backends behind it and says when they were offline.
 *
 * @example
 * ```ts
 * import { loadCruxData, mainTable, saveAnalysis } from "@lib/analysis/mod.ts";
 * import { displayTable } from "@lib/report/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const data = await loadCruxData(ws);
 * const main = mainTable(data);
 * await saveAnalysis(main, dir); // notebooks use outputs/sample, the workspace's folder
 * displayTable(main.table!);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
export type {
  Analysis,
  AnalysisTopic,
  CellKey,
  CellSource,
  Condition,
  ConditionKind,
  CruxData,
} from "./types.ts";
export { seededRandom } from "@lib/metrics/mod.ts";
export { sampleContexts, type SampleContextsOptions } from "./sample_contexts.ts";
export {
  SAMPLE_KEYS,
  type SampledContext,
  sampledContexts,
  type SampleSettings,
} from "./sampled_contexts.ts";
export { loadCruxData, type LoadCruxDataOptions } from "./load_crux_data.ts";
export {
  type PipelineSpec,
  REFERENCE_LABELS,
  resolveConditions,
  type ResolveConditionsOptions,
} from "./resolve_conditions.ts";
export {
  mainTable,
  type MainTableData,
  type MainTableOptions,
  type MeasureTau,
} from "./main_table.ts";
export {
  type ThresholdStat,
  thresholdTable,
  type ThresholdTableData,
  type ThresholdTableOptions,
} from "./threshold_table.ts";
export {
  contextSizeTable,
  type ContextSizeTableData,
  type ContextSizeTableOptions,
  type ContextSizeTau,
} from "./context_size_table.ts";
export {
  metricCorrelations,
  type MetricCorrelationsData,
  type MetricCorrelationsOptions,
} from "./metric_correlations.ts";
export {
  topicCoverage,
  type TopicCoverageData,
  type TopicCoverageOptions,
} from "./topic_coverage.ts";
export { type HumanLabel, parseHumanLabels, readHumanLabels } from "./human_labels.ts";
export { humanReportLabels } from "./human_report_labels.ts";
export { humanCoverageRows, type HumanCoverageRowsOptions } from "./human_coverage_rows.ts";
export {
  generationOverview,
  type GenerationOverviewData,
  type GenerationOverviewOptions,
  type ReportLength,
} from "./generation_overview.ts";
export {
  type ConditionScore,
  reportScores,
  type ReportScoresData,
  type ReportScoresOptions,
} from "./report_scores.ts";
export { saveAnalysis, type SavedAnalysis } from "./save_analysis.ts";
export { type CellOrigin, tableCells } from "./table_cells.ts";
export {
  analyzeWorkspace,
  type AnalyzeWorkspaceOptions,
  type WorkspaceAnalyses,
} from "./analyze_workspace.ts";
export { type ExperimentPaths, experimentPaths } from "./experiment_paths.ts";
export { type LoadedExperiment, loadExperiment } from "./load_experiment.ts";
export { datasetTable } from "./dataset_table.ts";
export {
  humanAgreementAnalyses,
  type HumanAgreementAnalysesData,
  type HumanAgreementAnalysesOptions,
} from "./human_agreement_analyses.ts";
export { computeStatistics, type StatisticRequest, STATISTICS } from "./compute_statistics.ts";
export { NOT_STORED, type ShownStatistic, storedStatistic } from "./stored_statistic.ts";
export {
  type StoredStatistics,
  storeStatistics,
  type StoreStatisticsOptions,
} from "./store_statistics.ts";
export { statisticsStep } from "./statistics_step.ts";
export { withStoredCaveats } from "./stored_caveats.ts";
export { cellTopicSets } from "./cell_topic_sets.ts";
export { humanAgreementJudge, type HumanAgreementJudgeOptions } from "./human_agreement_judge.ts";
export {
  HUMAN_STUDY_SOURCE,
  humanAgreementRows,
  type HumanAgreementRowsOptions,
} from "./human_agreement_rows.ts";
export { experimentAnalysisOptions } from "./experiment_analysis_options.ts";
export {
  type ContextCondition,
  type ContextEvaluationResult,
  evaluateContexts,
  type EvaluateContextsOptions,
} from "./context_evaluation.ts";
export { type ContextReport, contextReport, type ContextReportOptions } from "./context_report.ts";
export { contextAnalyses, contextSettings } from "./context_analyses.ts";
export { type GridRow, gridTable, type GridTableInput } from "./grid_table.ts";
export { gridAnalysis } from "./grid_analysis.ts";
export { analyzeExperiment, type AnalyzeExperimentOptions } from "./analyze_experiment.ts";
export { analysisParams } from "./analysis_params.ts";
export { runPalette } from "./run_palette.ts";
export { storedReportCoverage } from "./report_coverage.ts";
