/**
 * Record types shared across the workbench (topics, passages, questions,
 * ratings, qrels, runs, generations, assignments, metrics).
 *
 * @module
 */
export * from "./records.ts";
export type { Embedder } from "./embedder.ts";
