/**
 * Workspace tables of nugget evaluation (TREC 2024 RAG): nuggets and their assignments to answers. Spread into `TABLES` by `schema.ts`.
 *
 * @module
 */

/** Table name -> `CREATE TABLE IF NOT EXISTS` statement. */
export const NUGGET_TABLES: Readonly<Record<string, string>> = {
  /**
   * Nuggets of a topic by origin (`created:<model>`, `created:offline`, `file:<basename>`),
   * in creation order (`ordinal` from 1). `importance` is `vital`, `okay`, `failed` (the
   * labelling output could not be read; `importance_raw` keeps it) or null before labelling;
   * `importance_by` names the labeller; `kept` is false for nuggets past the top 20 after
   * sorting vital first; `call` is the cache key of the creation call that last produced it.
   */
  nuggets: `CREATE TABLE IF NOT EXISTS nuggets (
    topic_id VARCHAR, origin VARCHAR, ordinal INTEGER, text VARCHAR, importance VARCHAR,
    importance_by VARCHAR, importance_call VARCHAR, importance_raw VARCHAR, kept BOOLEAN,
    call VARCHAR, PRIMARY KEY (topic_id, origin, ordinal))`,
  /**
   * The passages a topic's created nuggets came from, in the order they were shown
   * (`ordinal` from 1, `window_index` from 0), their text, the CRUX or UMBRELA grade used
   * to select them and the status of the window's call (`ok`, `failed`; raw text kept).
   */
  nugget_passages: `CREATE TABLE IF NOT EXISTS nugget_passages (
    topic_id VARCHAR, origin VARCHAR, ordinal INTEGER, passage_id VARCHAR, window_index INTEGER,
    text VARCHAR, grade INTEGER, call VARCHAR, status VARCHAR, raw VARCHAR,
    PRIMARY KEY (topic_id, origin, ordinal))`,
  /**
   * One label per (answer, nugget, judge): `support`, `partial_support`, `not_support` or
   * `failed` (raw text kept), the answer being a `generations` row (`run`, `topic_id`) and
   * the nugget (`origin`, `ordinal`) of its topic; `call` is the cache key of the call.
   */
  nugget_assignments: `CREATE TABLE IF NOT EXISTS nugget_assignments (
    run VARCHAR, topic_id VARCHAR, origin VARCHAR, ordinal INTEGER, judge VARCHAR,
    label VARCHAR, call VARCHAR, raw VARCHAR,
    PRIMARY KEY (run, topic_id, origin, ordinal, judge))`,
};
