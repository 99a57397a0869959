/**
 * Measures, the evaluator and statistics of the workbench.
 *
 * - A registry of measure declarations (ir_measures syntax, trec_eval aliases):
 *   `P`, `R`, `AP`, `RPrec`, `RR`, `nDCG` (equal to trec_eval 10.0), `alpha_nDCG`
 *   (ndeval rules), and CRUX's `Cov` and `Den`.
 * - {@linkcode evaluate}: the one evaluator deciding ordering, duplicates and
 *   which topics are averaged.
 * - CRUX dataset construction ({@linkcode requiredSubset}) and generated-text coverage.
 * - Other methods' scores: nuggets, key points, sub-question coverage by type.
 * - Statistics: correlations, agreement, significance tests, bootstrap intervals.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate } from "@lib/metrics/mod.ts";
 * const runRows = [
 *   { run: "bm25", topicId: "t", docId: "t:0#0", rank: 1, score: 2 },
 *   { run: "bm25", topicId: "t", docId: "t:0#1", rank: 2, score: 1 },
 * ];
 * // CRUX: every passage rated 0-5 on each of the topic's sub-questions; P* = grade 3.
 * const judgments = [
 *   { topicId: "t", itemId: "t:0#0", ratings: [5, 0] },
 *   { topicId: "t", itemId: "t:0#1", ratings: [4, 1] },
 *   { topicId: "t", itemId: "t:1#0", ratings: [0, 5] },
 * ];
 * const qrels = [
 *   { topicId: "t", docId: "t:0#0", grade: 3 },
 *   { topicId: "t", docId: "t:0#1", grade: 1 },
 *   { topicId: "t", docId: "t:1#0", grade: 3 },
 * ];
 * const result = evaluate(runRows, ["nDCG@10", "alpha_nDCG@10", "Cov@oracle"], { qrels, judgments });
 * assert.equal(result.runs[0].aggregate["Cov@oracle"], 0.5); // the top 2 answer the first of 2 sub-questions
 * ```
 *
 * @module
 */
export type {
  Cutoff,
  Measure,
  MeasureDef,
  MeasureNeeds,
  MeasureParam,
  ParamValue,
  ResolvedMeasure,
} from "./measure.ts";
export { type AliasOptions, type AliasTarget, MeasureRegistry } from "./measure_registry.ts";
export { builtinRegistry, defaultRegistry } from "./default_registry.ts";
export { parseMeasure, type ParseMeasureOptions } from "./parse_measure.ts";
export { formatMeasure, type FormatMeasureOptions } from "./format_measure.ts";
export {
  answerMeasureName,
  formatMeasureKey,
  type MeasureKey,
  type MeasureKeyColumns,
  parseMeasureKey,
} from "./measure_key.ts";
export { formatTopicSet, parseTopicSet, type TopicSet } from "./topic_set.ts";
export { valueTopicSet } from "./value_topic_set.ts";
export { datasetMeanRows, type MeanableRow } from "./dataset_mean_rows.ts";
export { countRows } from "./count_rows.ts";
export {
  averagePrecision,
  ndcg,
  precision,
  recall,
  reciprocalRank,
  RELEVANCE_MEASURES,
  rPrecision,
} from "./relevance_measures.ts";
export { alphaNdcg } from "./alpha_ndcg.ts";
export { coverageMeasure, densityMeasure } from "./crux_measures.ts";
export { TopicView } from "./topic_view.ts";
export {
  type ItemRatings,
  type Judged,
  type JudgedInputs,
  prepareJudged,
  type PrepareJudgedOptions,
  type TopicJudgments,
} from "./judged.ts";
export { judgedMeasure } from "./judged_measure.ts";
export {
  evaluate,
  type EvaluateOptions,
  type EvaluationResult,
  type RunSummary,
  type SkippedTopic,
} from "./evaluate.ts";
export {
  type EvaluationFormat,
  formatEvaluation,
  type FormatEvaluationOptions,
} from "./format_evaluation.ts";
export { splitMeasureList } from "./split_measure_list.ts";
export { reportCoverage, type ReportCoverageOptions } from "./report_coverage.ts";
export {
  type RequiredSubset,
  requiredSubset,
  type RequiredSubsetOptions,
} from "./required_subset.ts";
export { kendallTau } from "./kendall_tau.ts";
export { averageRanks, spearman } from "./spearman.ts";
export { pearson } from "./pearson.ts";
export { systemCorrelation, type SystemCorrelationOptions } from "./system_correlation.ts";
export {
  compareMethods,
  type CompareMethodsOptions,
  type MethodComparison,
  type MethodCorrelation,
  type MethodDisagreement,
  type MethodScore,
  type TopicCorrelation,
} from "./method_comparison.ts";
export { type JudgeVariance, judgeVariance, type SampledScore } from "./judge_variance.ts";
export { holmAdjust } from "./holm_adjust.ts";
export {
  type RunInterval,
  type RunPairTest,
  type RunSignificance,
  runSignificance,
  type RunSignificanceOptions,
  type RunTopicValue,
} from "./run_significance.ts";
export { cohenKappa } from "./cohen_kappa.ts";
export { fleissKappa } from "./fleiss_kappa.ts";
export { randolphKappa } from "./randolph_kappa.ts";
export {
  type AlphaLevel,
  type AlphaValue,
  krippendorffAlpha,
  type KrippendorffAlphaOptions,
} from "./krippendorff_alpha.ts";
export { type AnswerabilityAgreement, answerabilityAgreement } from "./answerability_agreement.ts";
export {
  type HumanAgreement,
  humanAgreement,
  type HumanAgreementOptions,
  type JudgeAgreement,
  type KappaSet,
} from "./human_agreement.ts";
export {
  subquestionTypeAgreement,
  type TypeAgreement,
  type TypeJudgeAgreement,
} from "./subquestion_type_agreement.ts";
export { pairedTTest, type TTestResult } from "./paired_t.ts";
export { type RandomizationOptions, randomizationTest } from "./randomization.ts";
export { bootstrapCi, type BootstrapOptions } from "./bootstrap_ci.ts";
export {
  meanNuggetScores,
  type NuggetJudgment,
  type NuggetScores,
  nuggetScores,
} from "./nugget_scores.ts";
export {
  type KeyPointJudgments,
  type KeyPointQuestionScores,
  type KeyPointScores,
  keyPointScores,
} from "./key_point_scores.ts";
export { type KeyPointLabel, keyPointRates } from "./key_point_rates.ts";
export {
  type CoverageCells,
  type SubquestionType,
  type SubquestionTypeScores,
  subquestionTypeScores,
  type TypedCoverage,
} from "./subquestion_type_scores.ts";
export { ANSWER_WEIGHTS, answerRating } from "./answer_rating.ts";
export { preferenceAccuracy, type PreferencePair } from "./preference_accuracy.ts";
export { scanQrels, scanRun } from "./scan_trec.ts";
export {
  type RunTable,
  runTableRows,
  type RunTopicColumns,
  scanRunTable,
  topicRows,
} from "./run_table.ts";
export { type QrelsTable, qrelsTableRows, scanQrelsTable } from "./qrels_table.ts";
export { RunEvaluator } from "./run_evaluator.ts";
export { type RunTableChunk, runTableChunks } from "./run_table_chunks.ts";
export { seededRandom } from "./seeded_random.ts";
export { oracleSets } from "./oracle_sets.ts";
export { mean } from "./mean.ts";
export { CRUX_DEFAULTS } from "./crux_defaults.ts";
export { answerableQuestions } from "./answerable_questions.ts";
export { type OracleTokens, oracleTokens } from "./oracle_tokens.ts";
export {
  type CoverageInput,
  type CoverageOptions,
  type CoverageScores,
  coverageScores,
} from "./coverage_scores.ts";
