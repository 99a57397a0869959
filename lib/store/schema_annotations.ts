/**
 * Workspace tables of human annotation studies: tasks, their items (opaque ids, so
 * annotators never see run names), annotators with their hashed tokens, who labels
 * what, and the labels as given. Spread into `TABLES` by `schema.ts`.
 *
 * @module
 */

/** Table name -> `CREATE TABLE IF NOT EXISTS` statement. */
export const ANNOTATION_TABLES: Readonly<Record<string, string>> = {
  /**
   * One row per task kind (`answerability`, `passages`, `nuggets`, `preference`): the
   * sampling seed, items per condition and the overlap (annotators per item).
   */
  annotation_tasks: `CREATE TABLE IF NOT EXISTS annotation_tasks (
    task VARCHAR PRIMARY KEY, seed INTEGER, per_condition INTEGER, overlap INTEGER,
    created_at TIMESTAMP)`,
  /**
   * The items of a task: `item_id` is opaque; `unit` groups items labelled together
   * (the sub-questions of one report); `run`/`run_b` the report(s) or retrieval run
   * shown, `passage_id`, `question_id` or the nugget (`origin`, `ordinal`) labelled.
   */
  annotation_items: `CREATE TABLE IF NOT EXISTS annotation_items (
    task VARCHAR, item_id VARCHAR, unit VARCHAR, position INTEGER, topic_id VARCHAR,
    run VARCHAR, run_b VARCHAR, passage_id VARCHAR, question_id VARCHAR, origin VARCHAR,
    ordinal INTEGER, PRIMARY KEY (task, item_id))`,
  /** Annotators of a task and the SHA-256 (hex) of their secret token. */
  annotators: `CREATE TABLE IF NOT EXISTS annotators (
    task VARCHAR, annotator VARCHAR, token_sha256 VARCHAR,
    PRIMARY KEY (task, annotator))`,
  /** Which annotator labels which item, in queue order (`position`). */
  annotation_queue: `CREATE TABLE IF NOT EXISTS annotation_queue (
    task VARCHAR, annotator VARCHAR, item_id VARCHAR, position INTEGER,
    PRIMARY KEY (task, annotator, item_id))`,
  /**
   * The labels, saved as given: `0`/`1` (answerability), a JSON object question id ->
   * 0..5 (passages), `support`/`partial_support`/`not_support` (nuggets), `A`/`B`/`tie`
   * (preference, A the answer shown first); `span` the supporting text pasted.
   */
  annotation_labels: `CREATE TABLE IF NOT EXISTS annotation_labels (
    task VARCHAR, annotator VARCHAR, item_id VARCHAR, label VARCHAR, span VARCHAR,
    labelled_at TIMESTAMP, PRIMARY KEY (task, annotator, item_id))`,
};
