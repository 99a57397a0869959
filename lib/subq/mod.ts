/**
 * Sub-question coverage by type (Xie et al.): decomposition of a complex
 * question into about 20 sub-questions, typing (core / background /
 * follow-up), coverage judgments of answers and their retrieved chunks with the
 * answering span located, metrics #1-#6 and the weighted answer rating, the
 * position-swapped pairwise judge, preference accuracy with a weight search,
 * and RAG variants that use core sub-questions. Every step has an offline
 * backend (labelled as such in its outputs) and an LLM backend through the
 * cached, traced LLM layer.
 *
 * @example
 * ```ts
 * import { classifySubquestions, decomposeQuestions, judgeCoverage } from "@lib/subq/mod.ts";
 * const [d] = await decomposeQuestions([{ id: "q", question: "Why did the dam fail?" }], { n: 5 });
 * const [t] = await classifySubquestions([{ id: "q", question: "Why did the dam fail?", subQuestions: d.subQuestions }]);
 * await judgeCoverage(d.subQuestions.map((s, i) => ({ id: `${i}`, subQuestion: s, text: "The dam failed after rain." })));
 * ```
 *
 * @module
 */
export { OFFLINE_BACKENDS, type StepStatus, type SubqStepOptions } from "./types.ts";
export { locateSpan, type SpanLocation } from "./locate_span.ts";
export { heuristicType } from "./heuristic_type.ts";
export { offlineDecompose } from "./offline_decompose.ts";
export { type LexicalCoverage, lexicalCoverage } from "./lexical_coverage.ts";
export {
  type DecomposeInput,
  decomposeQuestions,
  type DecomposeResult,
} from "./decompose_questions.ts";
export {
  type ClassifyInput,
  type ClassifyResult,
  classifySubquestions,
  DEFAULT_TYPE_EXAMPLES,
} from "./classify_subquestions.ts";
export { parseSubquestionType } from "./parse_subquestion_type.ts";
export {
  type CoverageResult,
  judgeCoverage,
  parseCoverageAnswer,
  type SubqCoverageInput,
} from "./judge_coverage.ts";
export {
  combineOrders,
  type PairVerdict,
  type PairwiseInput,
  pairwiseJudge,
  type PairwiseResult,
  parsePairwiseAnswer,
} from "./pairwise_judge.ts";
export {
  type LabelledPair,
  searchWeights,
  type TypeWeights,
  weightedAccuracy,
  type WeightSearch,
} from "./search_weights.ts";
export { type SystemScores, systemScores, type TypeShares } from "./system_scores.ts";
export { type RunVerdict, type WinRateCell, winRates } from "./win_rates.ts";
export {
  type JudgedPreference,
  type PreferenceResults,
  preferenceResults,
} from "./preference_results.ts";
export {
  decomposeTopics,
  type DecomposeTopicsOptions,
  type DecomposeTopicsSummary,
} from "./decompose_topics.ts";
export { classifyTopics, type ClassifyTopicsSummary } from "./classify_topics.ts";
export {
  coverageJudgeName,
  judgeAnswers,
  type JudgeAnswersOptions,
  type JudgeAnswersSummary,
} from "./judge_answers.ts";
export { type CoverageLinesOptions, workspaceCoverageLines } from "./workspace_coverage_lines.ts";
export { storeSubqMeasures, SUBQ_MEASURES, subqMeasureRows } from "./store_subq_measures.ts";
export {
  CORE_VARIANTS,
  type CoreVariant,
  type CoreVariantsOptions,
  generateCoreVariants,
} from "./core_variants.ts";
export { compareRuns, type CompareRunsOptions } from "./compare_runs.ts";
export { evaluatePreferences, type EvaluatePreferencesOptions } from "./evaluate_preferences.ts";
