/**
 * The list of `crux` subcommands. Each command lives in `commands/<name>.ts`
 * and is registered here once; its module is imported only when it runs.
 *
 * @module
 */
import type { LazyCommand } from "./command.ts";

/** All subcommands, in the order `crux --help` lists them. */
export const COMMANDS: LazyCommand[] = [
  {
    name: "demo",
    summary: "Run the whole chain on the bundled sample, offline, and write tables and figures",
    load: async () => (await import("./commands/demo.ts")).demoCommand,
  },
  {
    name: "run",
    summary: "Run an experiment config: construct, retrieve, generate, judge, measure, analyze",
    load: async () => (await import("./commands/run.ts")).runCommand,
  },
  {
    name: "import",
    summary: "Load a dataset (sample, Multi-News, DUC, CRUX release, runs, qrels) into a workspace",
    load: async () => (await import("./commands/import.ts")).importCommand,
  },
  {
    name: "index",
    summary: "Build a persistent BM25 index from a passages JSONL file",
    load: async () => (await import("./commands/index.ts")).indexCommand,
  },
  {
    name: "search",
    summary: "Search topics against a BM25 index and write a TREC run",
    load: async () => (await import("./commands/search.ts")).searchCommand,
  },
  {
    name: "construct",
    summary:
      "Build CRUX evaluation data: passages, requests, sub-questions, ratings, required subset",
    load: async () => (await import("./commands/construct.ts")).constructCommand,
  },
  {
    name: "generate",
    summary: "Generate reports under the oracle budget (RAG, direct, oracle context)",
    load: async () => (await import("./commands/generate.ts")).generateCommand,
  },
  {
    name: "eval",
    summary: "Evaluate TREC runs: trec_eval measures, alpha-nDCG, CRUX coverage and density",
    load: async () => (await import("./commands/eval.ts")).evalCommand,
  },
  {
    name: "judge",
    summary:
      "Judge answerability of question/context pairs (LLM endpoint or offline lexical judge)",
    load: async () => (await import("./commands/judge.ts")).judgeCommand,
  },
  {
    name: "llm",
    summary: "Statistics of the LLM call cache: calls, cache hits, failures, tokens, cost",
    load: async () => (await import("./commands/llm.ts")).llmCommand,
  },
  {
    name: "batch",
    summary:
      "Export pending LLM requests as OpenAI Batch JSONL, import batch results into the cache",
    load: async () => (await import("./commands/batch.ts")).batchCommand,
  },
  {
    name: "export",
    summary: "Export a workspace table as Parquet, CSV, JSONL or TREC",
    load: async () => (await import("./commands/export.ts")).exportCommand,
  },
];
