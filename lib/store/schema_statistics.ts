/**
 * Workspace tables of what is derived from stored measures: the statistics a
 * stage computes from them (correlations, means and deviations across runs)
 * and the caveats that qualify the rows of a table. Spread into `TABLES` by
 * `schema.ts`.
 *
 * @module
 */

/** Table name -> `CREATE TABLE IF NOT EXISTS` statement. */
export const STATISTICS_TABLES: Readonly<Record<string, string>> = {
  /**
   * Statistics computed from stored measure values, one row per statistic key
   * (`key`: the formatted `StatisticKey`, see `statistic_key.ts`): the
   * statistic (`kendall_tau_b`, `mean`, `sd`, ...), its inputs (the measure keys
   * of its first and, for a correlation, second vector, as JSON), the topic set
   * of those inputs and its parameters; `value` null when it is absent, with
   * `reason` saying why; `n` the number of values (or pairs) it is over.
   */
  statistics: `CREATE TABLE IF NOT EXISTS statistics (
    key VARCHAR PRIMARY KEY, statistic VARCHAR, inputs JSON, topic_set VARCHAR, params JSON,
    value DOUBLE, n INTEGER, reason VARCHAR)`,
  /**
   * Caveats: notes that qualify a table's rows (`subject`: the table's name),
   * in the order they are shown; `row_label` and `column_key` name the row and
   * column they qualify ('' for the whole table or row).
   */
  caveats: `CREATE TABLE IF NOT EXISTS caveats (
    subject VARCHAR, ordinal INTEGER, row_label VARCHAR, column_key VARCHAR, text VARCHAR,
    PRIMARY KEY (subject, ordinal))`,
};
