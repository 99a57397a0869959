/**
 * Workspace tables of key point recall (Long2RAG): key points, merge maps and entailment labels. Spread into `TABLES` by `schema.ts`.
 *
 * @module
 */

/** Table name -> `CREATE TABLE IF NOT EXISTS` statement. */
export const KEYPOINT_TABLES: Readonly<Record<string, string>> = {
  /**
   * Key points per topic (question): `level` `original` (one document's point, ids
   * `o1`, `o2`, ..., with its extraction `round`) or `merged` (ids `k1`, ...,
   * `merged_from` = its originals); `spans` the verbatim evidence and `span_status`
   * per span `exact` | `normalized` | `missing`; `source` the key point origin
   * (`extracted:<backend>` or `file:<basename>`).
   */
  keypoints: `CREATE TABLE IF NOT EXISTS keypoints (
    topic_id VARCHAR, keypoint_id VARCHAR, level VARCHAR, text VARCHAR, doc_id VARCHAR,
    spans VARCHAR[], span_status VARCHAR[], merged_from VARCHAR[], round INTEGER, source VARCHAR,
    PRIMARY KEY (topic_id, keypoint_id, level, source))`,
  /**
   * Entailment of each merged key point by a run's response: `label` yes | no |
   * neutral, NULL when the judge gave no usable answer (`status` unparsed |
   * failed); only yes counts as covered.
   */
  keypoint_labels: `CREATE TABLE IF NOT EXISTS keypoint_labels (
    run VARCHAR, topic_id VARCHAR, keypoint_id VARCHAR, label VARCHAR, status VARCHAR,
    reason VARCHAR, snippet VARCHAR, judge VARCHAR, source VARCHAR,
    PRIMARY KEY (run, topic_id, keypoint_id, judge, source))`,
  /** The response's statements (sentences) and whether its documents support them (KPP). */
  keypoint_statements: `CREATE TABLE IF NOT EXISTS keypoint_statements (
    run VARCHAR, topic_id VARCHAR, ordinal INTEGER, text VARCHAR, label VARCHAR,
    supported BOOLEAN, judge VARCHAR, PRIMARY KEY (run, topic_id, ordinal, judge))`,
  /** Extractions, merges and judgments that gave no usable answer, with the raw output. */
  keypoint_problems: `CREATE TABLE IF NOT EXISTS keypoint_problems (
    step VARCHAR, topic_id VARCHAR, item VARCHAR, status VARCHAR, reason VARCHAR,
    raw VARCHAR, backend VARCHAR)`,
};
