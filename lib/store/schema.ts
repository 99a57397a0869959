/**
 * The workspace schema: the single source of truth for every DuckDB table of an
 * experiment workspace (`outputs/<experiment>/workspace.duckdb`). Column names
 * are the snake_case forms of the camelCase record fields in `@lib/types`.
 *
 * @module
 */

import { NUGGET_TABLES } from "./schema_nuggets.ts";
import { KEYPOINT_TABLES } from "./schema_keypoints.ts";
import { SUBQ_TABLES } from "./schema_subq.ts";
import { ANNOTATION_TABLES } from "./schema_annotations.ts";
import { STATISTICS_TABLES } from "./schema_statistics.ts";

/** Version of the schema; stored in `meta` and checked when a workspace is opened. */
export const SCHEMA_VERSION = 6;

/** Table name -> `CREATE TABLE IF NOT EXISTS` statement. Order matters only for readability. */
export const TABLES: Readonly<Record<string, string>> = {
  meta: `CREATE TABLE IF NOT EXISTS meta (
    key VARCHAR PRIMARY KEY, value VARCHAR)`,
  topics: `CREATE TABLE IF NOT EXISTS topics (
    topic_id VARCHAR PRIMARY KEY, request VARCHAR, title VARCHAR, summary VARCHAR, source VARCHAR)`,
  documents: `CREATE TABLE IF NOT EXISTS documents (
    topic_id VARCHAR, doc_id VARCHAR, doc_index INTEGER, text VARCHAR, title VARCHAR,
    PRIMARY KEY (topic_id, doc_id))`,
  passages: `CREATE TABLE IF NOT EXISTS passages (
    passage_id VARCHAR PRIMARY KEY, topic_id VARCHAR, doc_id VARCHAR, text VARCHAR, tokens INTEGER)`,
  questions: `CREATE TABLE IF NOT EXISTS questions (
    topic_id VARCHAR, question_id VARCHAR, kind VARCHAR, ordinal INTEGER, text VARCHAR,
    type VARCHAR, importance VARCHAR, answerable BOOLEAN,
    PRIMARY KEY (topic_id, question_id, kind))`,
  /**
   * One rating per (topic, item, sub-question, judge): an item (a passage, a report)
   * may be rated under several topics, each with its own ratings.
   */
  ratings: `CREATE TABLE IF NOT EXISTS ratings (
    topic_id VARCHAR, item_id VARCHAR, question_id VARCHAR, rating INTEGER, judge VARCHAR,
    PRIMARY KEY (topic_id, item_id, question_id, judge))`,
  qrels: `CREATE TABLE IF NOT EXISTS qrels (
    name VARCHAR, topic_id VARCHAR, subtopic VARCHAR, doc_id VARCHAR, grade INTEGER,
    PRIMARY KEY (name, topic_id, subtopic, doc_id))`,
  runs: `CREATE TABLE IF NOT EXISTS runs (
    run VARCHAR, topic_id VARCHAR, doc_id VARCHAR, rank INTEGER, score DOUBLE)`,
  generations: `CREATE TABLE IF NOT EXISTS generations (
    run VARCHAR, topic_id VARCHAR, text VARCHAR, condition VARCHAR, backend VARCHAR,
    context_ids VARCHAR[], tokens INTEGER, PRIMARY KEY (run, topic_id))`,
  assignments: `CREATE TABLE IF NOT EXISTS assignments (
    run VARCHAR, topic_id VARCHAR, question_id VARCHAR, label VARCHAR, judge VARCHAR,
    evidence VARCHAR, PRIMARY KEY (run, topic_id, question_id, judge))`,
  /**
   * The model-call cache. Prompts and answers are stored with ZSTD: DuckDB's own
   * choice for long strings (dictionary and FSST) costs about six times as much CPU
   * at each checkpoint and gives larger files (a call cache is mostly long, similar
   * prompts). A cache created before keeps its compression until `crux workspace
   * migrate` rewrites it.
   */
  llm_calls: `CREATE TABLE IF NOT EXISTS llm_calls (
    key VARCHAR PRIMARY KEY, model VARCHAR, endpoint VARCHAR, template VARCHAR,
    params JSON, messages JSON USING COMPRESSION zstd, response VARCHAR USING COMPRESSION zstd,
    usage JSON, status VARCHAR, error VARCHAR, attempts INTEGER, latency_ms DOUBLE,
    created_at TIMESTAMP)`,
  /**
   * The first generated tokens' log-probabilities of the cached calls that asked for
   * them (`{topK, tokens}` JSON, `tokens` null when the endpoint returned none).
   */
  llm_logprobs: `CREATE TABLE IF NOT EXISTS llm_logprobs (
    key VARCHAR PRIMARY KEY, logprobs JSON)`,
  /**
   * The measure table: every number the workbench reports, one row per (run, topic,
   * measure, judge, source); `topic_id = 'all'` holds the aggregate and, when the
   * topics come from several datasets, `all:<dataset>` each dataset's. `measure` is the
   * canonical string as the registry prints it (`Cov@10`, `alpha_nDCG@oracle`,
   * `strict_vital`, `KPR`); `name` the measure without parameters or cutoff and
   * `cutoff` the cutoff as written (`10`, `oracle`, '' for none). `method` is the
   * evaluation method (`trec`, `crux`, `nuggets`, `keypoints`, `subq`); `judge` the
   * judge whose labels produced it and `source` the relevance source (`judgments`,
   * `selection`, a labels file, ...), '' where they do not apply; `topics` the number of
   * topics averaged (aggregate rows only); `topic_set` the topics the value is over as
   * `formatTopicSet` (lib/metrics) writes it (`topic(id=t1)` for a per-topic value,
   * `answerable(tau=3,n=49)`, `judged(n=50)`, `all(n=50)` for a mean,
   * `answerable(tau=3,n=40,dataset=multi_news)` for one dataset's), null where the
   * writer states none (rows of schema version 5 and earlier).
   */
  measures: `CREATE TABLE IF NOT EXISTS measures (
    run VARCHAR, topic_id VARCHAR, measure VARCHAR, name VARCHAR, cutoff VARCHAR,
    method VARCHAR, judge VARCHAR, source VARCHAR, value DOUBLE, topics INTEGER,
    topic_set VARCHAR,
    PRIMARY KEY (run, topic_id, measure, judge, source))`,
  /**
   * The workspace's one memo of what was computed from what: keyed records
   * (kind, key) -> fingerprint, with a small JSON payload (see `memo.ts`). Kinds:
   * `stage` (a pipeline stage instance: the fingerprint of its parameters, code
   * version and upstream fingerprints, payload `{stage, params, summary}`; a stage is
   * done when it matches, not when rows exist), `measure` (the measure step's input
   * fingerprint of a run and judge, payload its run summary) and `file` (a value
   * computed from an input file, fingerprinted by the file's identity).
   */
  memo: `CREATE TABLE IF NOT EXISTS memo (
    kind VARCHAR, key VARCHAR, fingerprint VARCHAR, payload JSON, recorded_at TIMESTAMP,
    PRIMARY KEY (kind, key))`,
  /** How each run was made: kind (bm25, dense, fusion, file, mmr, endpoint), parameters, source runs. */
  run_info: `CREATE TABLE IF NOT EXISTS run_info (
    run VARCHAR PRIMARY KEY, kind VARCHAR, params JSON, sources VARCHAR[], created_at TIMESTAMP)`,
  /** What each generation run is: condition, the retrieval run of its contexts, backend. */
  generation_info: `CREATE TABLE IF NOT EXISTS generation_info (
    run VARCHAR PRIMARY KEY, condition VARCHAR, context_run VARCHAR, backend VARCHAR,
    created_at TIMESTAMP)`,
  /**
   * What each rated item is, by judge: a passage, a generated report of a run, or the
   * reference (human summary), so no reader has to parse item ids; keyed like the
   * ratings by topic, since an item may be rated under several topics.
   */
  rated_items: `CREATE TABLE IF NOT EXISTS rated_items (
    item_id VARCHAR, judge VARCHAR, topic_id VARCHAR, item_kind VARCHAR, run VARCHAR,
    PRIMARY KEY (topic_id, item_id, judge))`,
  /** How each named qrels set was made: the judge and tau of a selection, or the imported file. */
  qrels_info: `CREATE TABLE IF NOT EXISTS qrels_info (
    name VARCHAR PRIMARY KEY, origin VARCHAR, judge VARCHAR, tau INTEGER, redundancy VARCHAR,
    created_at TIMESTAMP)`,
  ...NUGGET_TABLES,
  ...KEYPOINT_TABLES,
  ...SUBQ_TABLES,
  ...ANNOTATION_TABLES,
  ...STATISTICS_TABLES,
};
