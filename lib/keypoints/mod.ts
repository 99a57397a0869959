/**
 * Key point recall (Long2RAG, Qi et al. 2024): key points extracted from the
 * documents given to a response (with verbatim spans checked against the
 * documents), merged across documents with a merge map, and judged entailed
 * (yes / no / neutral) by each response; KPR, KPP, KPF and the three-way
 * supported / omitted / contradicted rates. Offline backends (salient
 * sentences, lexical merging, lexical entailment with a negation heuristic)
 * and model-based ones through the LLM layer share one interface each.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   extractQuestionKeyPoints, judgeKeyPoints, lexicalEntailer, lexicalMerger,
 *   mergeQuestionKeyPoints, offlineExtractor, scoreKeyPoints,
 * } from "@lib/keypoints/mod.ts";
 * const q = { qid: "q1", question: "When did the bridge open?", documents: [{ docId: "d1", text: "The bridge opened in 1932." }] };
 * const extracted = await extractQuestionKeyPoints([q], offlineExtractor());
 * const merged = await mergeQuestionKeyPoints(extracted.keypoints, lexicalMerger());
 * const judged = await judgeKeyPoints(merged.keypoints, [{ qid: "q1", runId: "r", text: "The bridge opened in 1932." }], lexicalEntailer());
 * assert.equal(scoreKeyPoints(merged.keypoints, judged.verdicts)[0].aggregate.KPR, 1);
 * ```
 *
 * @module
 */
export type * from "./types.ts";
export { DEFAULT_EXTRACTION_ROUNDS } from "./types.ts";
export { findSpan } from "./find_span.ts";
export { offlineExtractor, type OfflineExtractorOptions } from "./offline_extractor.ts";
export { llmExtractor } from "./llm_extractor.ts";
export { parseExtraction, type RawPoint } from "./parse_extraction.ts";
export { lexicalGroups, lexicalMerger } from "./lexical_merger.ts";
export { llmMerger } from "./llm_merger.ts";
export { parseMerge } from "./parse_merge.ts";
export { lexicalEntailer } from "./lexical_entailer.ts";
export { llmEntailer, type LlmEntailerOptions } from "./llm_entailer.ts";
export { type EntailmentVerdict, parseEntailment } from "./parse_entailment.ts";
export {
  type ExtractedKeyPoints,
  extractQuestionKeyPoints,
} from "./extract_question_key_points.ts";
export { type MergedKeyPoints, mergeQuestionKeyPoints } from "./merge_question_key_points.ts";
export {
  type JudgedKeyPoints,
  judgeKeyPoints,
  type KeyPointResponse,
  type KeyPointVerdict,
} from "./judge_key_points.ts";
export {
  checkStatements,
  DOCUMENT_SEPARATOR,
  type ResponseWithDocuments,
  type StatementVerdict,
} from "./check_statements.ts";
export {
  KEYPOINT_MEASURES,
  type KeyPointMeasure,
  type LabelInput,
  type QuestionScores,
  type RunKeyPointScores,
  scoreKeyPoints,
  type StatementInput,
} from "./score_key_points.ts";
export {
  type CountedKeyPoint,
  KEYPOINT_COUNT_MEASURES,
  type KeyPointCountMeasure,
  keyPointCountRows,
} from "./key_point_count_rows.ts";
export { keyPointMeasureRows } from "./key_point_measure_rows.ts";
export {
  type GeneratedResponse,
  generateResponses,
  type ResponseRequest,
} from "./generate_responses.ts";
export { storeKeyPoints } from "./store_key_points.ts";
export { readStoredKeyPoints } from "./read_key_points.ts";
