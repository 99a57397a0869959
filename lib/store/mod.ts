/**
 * The DuckDB experiment workspace (`outputs/<experiment>/workspace.duckdb`): opening
 * and schema versioning, camelCase record inserts/upserts with DuckDB's appender,
 * typed readers, exports (Parquet, CSV, JSONL, TREC) and importers for the sample,
 * Multi-News, DUC 2004, the CRUX release and TREC runs/qrels.
 *
 * @example
 * ```ts
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * console.log((await ws.topics()).length);
 * ws.close();
 * ```
 *
 * @module
 */
export { SCHEMA_VERSION, TABLES } from "./schema.ts";
export {
  type ExportFormat,
  type ExportOptions,
  type Params,
  type ReadFilter,
  Workspace,
} from "./workspace.ts";
export { DEFAULT_MEMORY_LIMIT, openWorkspace } from "./open_workspace.ts";
export {
  CHECKPOINT_THRESHOLD,
  isOlderStorage,
  STORAGE_VERSION,
  storageVersionOf,
  workspaceDatabaseConfig,
} from "./database_config.ts";
export { explainStorageError, type StorageFault, WorkspaceStorageError } from "./storage_error.ts";
export { checkWorkspace, type WorkspaceCheck } from "./check_workspace.ts";
export type { ImportCounts, ImportOptions } from "./_import.ts";
export { importSample } from "./import_sample.ts";
export { type CruxSources, importCrux } from "./import_crux.ts";
export {
  importMultiNews,
  type MultiNewsImportOptions,
  type MultiNewsSources,
} from "./import_multi_news.ts";
export { type DucImportOptions, importDuc } from "./import_duc.ts";
export { importQrels, importRun } from "./import_trec.ts";
export {
  group,
  readDocuments,
  readPassages,
  readRatings,
  readTopics,
  readWorkspaceQrels,
  readWorkspaceRun,
  readWorkspaceSubquestions,
  type WorkspaceLike,
} from "./workspace_reads.ts";
export { passageOrdinal } from "./passage_ordinal.ts";
export { passageJudge } from "./passage_judge.ts";
export { defaultReportJudge } from "./report_judge.ts";
export { measureRow, type MeasureRowFields } from "./measure_row.ts";
export { meanTopicId } from "./mean_topic_id.ts";
export { readTopicDatasets } from "./topic_datasets.ts";
export {
  ratedItem,
  recordGeneration,
  recordQrels,
  recordRatedItems,
  recordRun,
  recordTokenizer,
} from "./provenance.ts";
export {
  type MigrateOptions,
  migrateWorkspace,
  type MigrationResult,
  type RewriteProgress,
  type StorageRewrite,
} from "./migrate_workspace.ts";
export { type ContextGap, readContextGaps, recordContextGaps } from "./context_gaps.ts";
export {
  type CoverageVerdict,
  type RankedPassage,
  readCoverageVerdicts,
  readGenerationRunNames,
  readReportRatings,
  readReportRuns,
  readReportVerdicts,
  readRunProvenance,
  readStageRecords,
  readTopicGrades,
  readTopicListing,
  readTopicRanking,
  readTopicRequest,
  readTopicRunNames,
  readTopicTypes,
  type RunProvenance,
  type StageRecord,
  type StoredVerdict,
  type TopicListing,
} from "./explorer_reads.ts";
export { readExplorerTopicRows, type TopicRows } from "./explorer_topic_rows.ts";
export { readExplorerReportRows, type ReportRows } from "./explorer_report_rows.ts";
export { type CompareRows, readExplorerCompareRows } from "./explorer_compare_rows.ts";
export {
  failedGenerations,
  type FailedReportRun,
  failedReportRuns,
  recordFailedGenerations,
} from "./failed_generations.ts";
export { incompleteRatingTopics, recordIncompleteRatingTopics } from "./incomplete_ratings.ts";
export {
  type AnnotationItem,
  type AnnotationSources,
  type AnnotationTaskKind,
  type AnnotationTaskRecord,
  hasAnnotationTask,
  type ItemTexts,
  type QueuedItem,
  readAnnotationLabels,
  readAnnotationSources,
  readAnnotationTask,
  readAnnotatorByToken,
  readAnnotatorQueue,
  readItemTexts,
  saveAnnotationLabel,
  saveAnnotationLabels,
  saveAnnotationTask,
  type StoredLabel,
} from "./annotations.ts";
export { readMetaJson, writeMetaJson } from "./meta_json.ts";
export { readGeneratedRuns, readRetrievalRunNames, readStageParams } from "./run_names.ts";
export {
  clearSubqPairwise,
  readSubqCoverage,
  readSubqCoverageDone,
  readSubqQuestions,
  readSubqTopicIds,
  replaceSubqPreferences,
  setSubqType,
  type SubqCoverageVerdict,
  type SubqQuestionRow,
  writeSubqCoverage,
  writeSubqFailures,
  writeSubqPairwise,
  writeSubqQuestions,
} from "./subq.ts";
export {
  clearNuggetAssignments,
  clearTopicNuggets,
  type NuggetJudgmentRow,
  type NuggetLabelRow,
  type NuggetRow,
  readNuggetJudgments,
  readNuggetLabels,
  readNuggetPassageTexts,
  readStoredNuggets,
  writeNuggetAssignments,
  writeNuggetPassages,
  writeNuggets,
} from "./nuggets.ts";
export {
  type KeypointRow,
  readKeypointRows,
  readKeypointSources,
  writeKeypointRows,
} from "./keypoints.ts";
export {
  type PassageTokens,
  readPassagesById,
  readPassageTexts,
  writeTopicRows,
} from "./corpus.ts";
export { type GeneratedAnswer, readGeneratedAnswers, writeGenerationRows } from "./generations.ts";
export { appendRunRows, replaceRunRows, writeRunRows } from "./runs.ts";
export { writeMeasures } from "./measures.ts";
export {
  type GenerationLength,
  readEmptyGenerationRuns,
  readGeneratedTopics,
  readGenerationLengths,
} from "./generations.ts";
export { readRatedItemKinds, readReportJudges } from "./rated_items.ts";
export {
  type PassageJudgment,
  type PassageJudgments,
  type RatingCount,
  readPassageJudgments,
  readRatingCounts,
  readReportQuestionRatings,
  type ReportQuestionRating,
} from "./ratings.ts";
export {
  ANSWER_ROWS,
  deleteMeasures,
  judgeSourceCounts,
  MEASURE_STEP_ROWS,
  type MeasureFilter,
  type MeasureOrder,
  type MeasureValueRow,
  readMeasures,
} from "./measures.ts";
export {
  countKeyPointProblems,
  readKeyPointsOfSource,
  type StoredKeyPoint,
  writeKeyPointLabels,
  writeKeyPointProblems,
  writeKeyPointStatements,
} from "./keypoints.ts";
export {
  type NuggetSupport,
  type NuggetTopicCounts,
  readNuggetSupport,
  readNuggetTopicCounts,
} from "./nuggets.ts";
export {
  readMainSubqCoverageJudge,
  readSubqBackends,
  readSubqPairwiseVerdicts,
  readSubqPreferenceRows,
  type SubqPairwiseVerdict,
  type SubqPreferenceRow,
} from "./subq.ts";
export { metaKeyRemoval, readMetaText } from "./meta.ts";
export { readMultiNewsParquet } from "./multi_news_parquet.ts";
export {
  clearRerankUsage,
  type GridMeasureRow,
  readGridMeasures,
  readRerankUsage,
  recordRerankUsage,
  type RerankUsageRow,
} from "./runs_grid.ts";
export {
  addLlmCacheHits,
  type CallLogprobs,
  createLlmCacheTables,
  type LlmCallRow,
  type LlmCallStage,
  type LlmCallStatsRow,
  newLlmCallStage,
  readLlmCalls,
  readLlmCallStats,
  type TokenAlternative,
  type TokenLogprob,
  writeLlmCalls,
} from "./llm_cache.ts";
export { readMeasureInputFingerprints } from "./measures.ts";
export {
  clearMemo,
  type MemoFilter,
  type MemoKind,
  type MemoRecord,
  type MemoWrite,
  readMemo,
  readStageRuns,
  recordStageRun,
  type StageRunRecord,
  withWorkspaceMemo,
  writeMemo,
} from "./memo.ts";
export { deleteMetaPrefix, readPassageTokenizer } from "./meta.ts";
export { clearReportRatings, clearSampleJudgeRatings } from "./ratings.ts";
export { clearSelectionQrels, countTopics, readTopicIds } from "./corpus.ts";
export { clearRunRows, clearRunsEverywhere } from "./runs.ts";
export { clearGenerations, readRunReports, type RunReport } from "./generations.ts";
export {
  clearKeyPointJudgments,
  clearKeyPointSource,
  clearKeyPointStep,
  readKeyPointLabels,
  readKeyPointStatements,
  type StoredKeyPointLabel,
} from "./keypoints.ts";
export { clearNuggetImportance, clearNuggetOrigin, readNuggetOrigins } from "./nuggets.ts";
export {
  clearAllSubqPairwise,
  clearSubqCoverage,
  clearSubqPreferences,
  clearSubquestionSource,
  clearSubquestionTypes,
} from "./subq.ts";
export { countRunRows } from "./runs.ts";
export { ratedPairs, ratingKey, ratingsByItem, writeRatings } from "./ratings.ts";
export { readGenerationsByRun } from "./generations.ts";
export {
  deleteTopicQrels,
  writeDocumentRows,
  writePassageRows,
  writeQrelsRows,
  writeQuestionRows,
} from "./corpus.ts";
export {
  clearContextMeasures,
  type ContextSkips,
  contextSkipsKey,
  readContextSkips,
  type StoredMeasure,
} from "./measures.ts";
export {
  formatStatisticKey,
  type MeasureRef,
  parseStatisticKey,
  type StatisticKey,
} from "./statistic_key.ts";
export { readStatistics, type StoredStatistic, writeStatistics } from "./statistics.ts";
export { type Caveat, readCaveats, writeCaveats } from "./caveats.ts";
