/**
 * File formats the workbench reads and writes: TREC runs and qrels, the CRUX
 * release (corpus, topics, sub-questions, judgments, human-study records), TREC RAG
 * 2024 nuggetizer files, NeuCLIR/RAGTIME nugget questions, typed sub-question
 * decompositions, Multi-News and DUC 2004. Every reader validates its input and
 * throws one {@linkcode InputError} listing each problem as `file:line: field: message`;
 * writers are atomic (temporary file + rename).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRun, parseRun } from "@lib/formats/mod.ts";
 * const rows = parseRun("q1 Q0 d1 1 2.5 bm25\n", { file: "x.run" });
 * assert.equal(formatRun(rows), "q1 Q0 d1 1 2.5 bm25\n");
 * ```
 *
 * @module
 */
export { formatProblem, InputError, MAX_PROBLEMS, type Problem } from "./input_error.ts";
export { type Content, writeAtomic } from "./write_atomic.ts";
export { checkTextSize, decodeText, readTextFile } from "./read_text_file.ts";
export { type LineChunk, type LineChunkOptions, LineChunks } from "./line_chunks.ts";
export { type AlignedRatingsOptions, alignRatings, readAlignedRatings } from "./aligned_ratings.ts";
export {
  parsePythonStringList,
  parseReportRunFile,
  readReportRunFile,
  reportLabelTarget,
  reportRunOf,
  type ReportRunRecord,
} from "./report_runs.ts";
export {
  ANALYSIS_FOLDER,
  canonicalPath,
  CSV_FILE,
  describeFound,
  type FileContent,
  type FolderContent,
  type Found,
  guardOutputs,
  INDEX_FOLDER,
  inspectPath,
  JSON_FILE,
  JSONL_FILE,
  JSONL_FOLDER,
  jsonlOf,
  OutputConflictError,
  type OutputKind,
  type OutputPaths,
  type OutputTarget,
  PARQUET_FILE,
  QRELS_FILE,
  RUN_FILE,
  sniffContent,
  WORKSPACE_FILES,
} from "./guard_outputs.ts";
export { formatJsonl, parseJsonl, readJsonl, writeJsonl } from "./jsonl.ts";
export { formatRun, parseRun, readRun, type RunOptions, streamRun, writeRun } from "./trec_run.ts";
export { formatQrels, parseQrels, readQrels, writeQrels } from "./trec_qrels.ts";
export { itemTopic, parsePassageId, type PassageIdParts } from "./passage_id.ts";
export { compareBytes } from "./compare_bytes.ts";
export { compareTrecOrder } from "./compare_trec_order.ts";
export { prefixRewrite, rewriteItem, rewriteOwnTopic } from "./topic_rewrite.ts";
export {
  type CorpusEntry,
  type CorpusOptions,
  parseCorpus,
  readCorpus,
  streamCorpus,
} from "./crux_corpus.ts";
export {
  parseTopics,
  readCruxTopics,
  readTopicsFile,
  type TopicFile,
  type TopicOptions,
} from "./crux_topics.ts";
export {
  parseSubquestions,
  readSubquestions,
  stripQuestionNumbering,
} from "./crux_subquestions.ts";
export {
  type Judgment,
  type JudgmentOptions,
  parseJudgments,
  readJudgments,
  streamJudgments,
} from "./crux_judgments.ts";
export { type HumanStudyRecord, parseHumanStudy, readHumanStudy } from "./human_study.ts";
export {
  type HumanAnnotations,
  parseHumanAnnotations,
  type PassageAnnotation,
  readHumanAnnotations,
  type ReportAnnotation,
} from "./human_annotations.ts";
export {
  type NuggetCandidate,
  type NuggetCreationInput,
  type NuggetCreationOptions,
  parseNuggetCreationInput,
  readNuggetCreationInput,
} from "./nugget_creation.ts";
export {
  formatNuggets,
  IMPORTANCE,
  type Nugget,
  nuggetQuestions,
  type NuggetSet,
  parseNuggets,
  readNuggets,
} from "./nuggets.ts";
export {
  answerGeneration,
  type AnswerSentence,
  answerText,
  formatRagAnswers,
  parseRagAnswers,
  type RagAnswer,
  readRagAnswers,
} from "./rag_answers.ts";
export {
  type AssignedNugget,
  ASSIGNMENT_LABELS,
  formatNuggetAssignments,
  formatNuggetScores,
  type NuggetAssignment,
  type NuggetScore,
  parseNuggetAssignments,
  parseNuggetScores,
  readNuggetAssignments,
  readNuggetScores,
} from "./nugget_assignments.ts";
export {
  type NuggetQuestion,
  parseNuggetQuestions,
  readNuggetQuestions,
  type TopicNuggetQuestions,
} from "./nugget_questions.ts";
export {
  type CoverageJudgment,
  type Decomposition,
  parseCoverageJudgments,
  parseDecompositions,
  readCoverageJudgments,
  readDecompositions,
  SUBQUESTION_TYPES,
  subquestionType,
  type TypedSubquestion,
} from "./typed_subquestions.ts";
export {
  checkMultiNewsColumns,
  type MultiNewsExample,
  type MultiNewsOptions,
  multiNewsRowExample,
  multiNewsRowExamples,
  readMultiNewsJsonl,
  readMultiNewsPairs,
  splitMultiNewsDocument,
} from "./multi_news.ts";
export {
  type DucCluster,
  ducClusterKey,
  type DucDocument,
  type DucSummary,
  parseDucDocuments,
  readDucClusters,
  readDucSummaries,
} from "./duc.ts";
export {
  ENTAILMENT_LABELS,
  type Entailments,
  type KeyPoint,
  type KeyPointLabelRecord,
  parseEntailments,
  parseKeyPoints,
  type QuestionKeyPoints,
  readEntailments,
  readKeyPoints,
  SPAN_STATUSES,
  type SpanStatus,
} from "./key_points.ts";
export { formatEntailments, formatKeyPoints } from "./format_key_points.ts";
export {
  formatStatementSupport,
  parseStatementSupport,
  readStatementSupport,
  type StatementRecord,
  type StatementSupport,
} from "./statement_support.ts";
export {
  parseQuestionDocuments,
  type QuestionDocument,
  type QuestionDocuments,
  readQuestionDocuments,
} from "./question_documents.ts";
export { parseTypedCoverage, readTypedCoverage, type TypedCoverageLine } from "./typed_coverage.ts";
export { parsePreferences, type PreferenceLine, readPreferences } from "./preferences.ts";
export { blankText } from "./blank_text.ts";
export { validUtf8 } from "./valid_utf8.ts";
