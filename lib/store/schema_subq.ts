/**
 * Workspace tables of sub-question coverage by type: typed sub-questions, coverage judgments and preferences. Spread into `TABLES` by `schema.ts`.
 *
 * @module
 */

/** Table name -> `CREATE TABLE IF NOT EXISTS` statement. */
export const SUBQ_TABLES: Readonly<Record<string, string>> = {
  /**
   * Typed sub-questions of each topic's request, by origin (`source`: `decompose`, `crux`,
   * a file): text, type (null until classified), and the backends that made them.
   */
  subq_questions: `CREATE TABLE IF NOT EXISTS subq_questions (
    topic_id VARCHAR, source VARCHAR, ordinal INTEGER, text VARCHAR, type VARCHAR,
    decomposer VARCHAR, classifier VARCHAR, PRIMARY KEY (topic_id, source, ordinal))`,
  /** Steps that left a topic without output (`unparsed` / `failed`), with the raw text or reason. */
  subq_failures: `CREATE TABLE IF NOT EXISTS subq_failures (
    topic_id VARCHAR, source VARCHAR, step VARCHAR, status VARCHAR, raw VARCHAR, backend VARCHAR,
    PRIMARY KEY (topic_id, source, step))`,
  /**
   * Coverage judgments of a text (an answer, a retrieved chunk, a preference answer) for a
   * sub-question, keyed by the SHA-256 of the text: answered (null when unparsed/failed),
   * the span, whether it occurs in the text, and its start (0-100 % of the text's words).
   */
  subq_coverage: `CREATE TABLE IF NOT EXISTS subq_coverage (
    text_key VARCHAR, sub_question VARCHAR, judge VARCHAR, answered BOOLEAN, span VARCHAR,
    span_found BOOLEAN, position DOUBLE, status VARCHAR, raw VARCHAR,
    PRIMARY KEY (text_key, sub_question, judge))`,
  /** Position-swapped pairwise verdicts between generation runs (A = run_a), per topic. */
  subq_pairwise: `CREATE TABLE IF NOT EXISTS subq_pairwise (
    topic_id VARCHAR, run_a VARCHAR, run_b VARCHAR, judge VARCHAR, forward VARCHAR,
    swapped VARCHAR, verdict VARCHAR, PRIMARY KEY (topic_id, run_a, run_b, judge))`,
  /**
   * Human-labelled preference pairs (a preference file), with each answer's judged
   * sub-questions (`items_a`, `items_b`: JSON lists of {type, answered}) and the pairwise
   * judge's verdict.
   */
  subq_preferences: `CREATE TABLE IF NOT EXISTS subq_preferences (
    source VARCHAR, pair INTEGER, question VARCHAR, preference DOUBLE, human VARCHAR,
    items_a JSON, items_b JSON, judge VARCHAR, pairwise_judge VARCHAR, pairwise VARCHAR,
    PRIMARY KEY (source, pair))`,
};
