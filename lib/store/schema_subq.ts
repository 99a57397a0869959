/**
 * Workspace tables of sub-question coverage by type: typed sub-questions, coverage judgments and preferences. Spread into `TABLES` by `schema.ts`.
 *
 * @module
 */

/** Table name -> `CREATE TABLE IF NOT EXISTS` statement. */
export const SUBQ_TABLES: Readonly<Record<string, string>> = {};
