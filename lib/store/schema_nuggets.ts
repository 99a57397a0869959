/**
 * Workspace tables of nugget evaluation (TREC 2024 RAG): nuggets and their assignments to answers. Spread into `TABLES` by `schema.ts`.
 *
 * @module
 */

/** Table name -> `CREATE TABLE IF NOT EXISTS` statement. */
export const NUGGET_TABLES: Readonly<Record<string, string>> = {};
