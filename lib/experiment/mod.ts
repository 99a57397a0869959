/**
 * Experiments end to end: experiment folders, opening a workspace filled from
 * the sample, BM25 retrieval into the workspace, context evaluation with its
 * table and figures, and the demo.
 *
 * @module
 */
export { experimentDir, repoRoot, sampleDir } from "./paths.ts";
export { type DemoOptions, type DemoResult, runDemo } from "./demo.ts";
