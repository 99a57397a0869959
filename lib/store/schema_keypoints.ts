/**
 * Workspace tables of key point recall (Long2RAG): key points, merge maps and entailment labels. Spread into `TABLES` by `schema.ts`.
 *
 * @module
 */

/** Table name -> `CREATE TABLE IF NOT EXISTS` statement. */
export const KEYPOINT_TABLES: Readonly<Record<string, string>> = {};
