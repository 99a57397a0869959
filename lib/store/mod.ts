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
export { openWorkspace } from "./open_workspace.ts";
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
  readQrels,
  readRatings,
  readRun,
  readSubquestions,
  readTopics,
  type WorkspaceLike,
} from "./workspace_reads.ts";
export { passageOrdinal } from "./passage_ordinal.ts";
export { passageJudge } from "./passage_judge.ts";
export { defaultReportJudge } from "./report_judge.ts";
export { measureRow, type MeasureRowFields } from "./measure_row.ts";
export {
  ratedItem,
  recordGeneration,
  recordQrels,
  recordRatedItems,
  recordRun,
  recordTokenizer,
} from "./provenance.ts";
export { migrateWorkspace } from "./migrate_workspace.ts";
export { type ContextGap, readContextGaps, recordContextGaps } from "./context_gaps.ts";
export {
  type CoverageVerdict,
  type RankedPassage,
  readCoverageVerdicts,
  readReportRatings,
  readReportRuns,
  readReportVerdicts,
  readRunProvenance,
  readStageRecords,
  readTopicListing,
  readTopicRanking,
  type RunProvenance,
  type StageRecord,
  type TopicListing,
  type Verdict,
} from "./explorer_reads.ts";
export { failedGenerations, recordFailedGenerations } from "./failed_generations.ts";
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
  saveAnnotationTask,
  type StoredLabel,
} from "./annotations.ts";
export { readMetaJson, writeMetaJson } from "./meta_json.ts";
export { readGeneratedRuns, readRetrievalRunNames, readStageParams } from "./run_names.ts";
export { passageRatingCounts, ratedPairs, ratingsByItem } from "./ratings.ts";
export { readGenerationsByRun } from "./generations_owners.ts";
export { deleteTopicQrels } from "./corpus_owners.ts";
export {
  clearContextMeasures,
  type ContextSkips,
  contextSkipsKey,
  firstReportCoverageJudge,
  readContextSkips,
  readCruxMeasures,
  readReportCoverageMeans,
  type StoredMeasure,
} from "./measures_owners.ts";
