/**
 * The list of `crux` subcommands. Each command lives in `commands/<name>.ts`
 * and is registered here once; its module is imported only when it runs.
 *
 * @module
 */
import type { Command, LazyCommand } from "./command.ts";

/**
 * A loader importing `commands/<file>.ts` when the command runs. The specifier
 * is computed, so Deno does not load every command's modules at startup.
 */
function lazy(file: string, exported: string): () => Promise<Command> {
  return async () => {
    const url = new URL(`./commands/${file}.ts`, import.meta.url).href;
    const module = await import(url) as Record<string, Command>;
    return module[exported];
  };
}

/** All subcommands, in the order `crux --help` lists them. */
export const COMMANDS: LazyCommand[] = [
  {
    name: "demo",
    summary: "Run the whole chain on the bundled sample, offline, and write tables and figures",
    load: lazy("demo", "demoCommand"),
  },
  {
    name: "run",
    summary: "Run an experiment config: construct, retrieve, generate, judge, measure, analyze",
    load: lazy("run", "runCommand"),
  },
  {
    name: "import",
    summary: "Load a dataset (sample, Multi-News, DUC, CRUX release, runs, qrels) into a workspace",
    load: lazy("import", "importCommand"),
  },
  {
    name: "index",
    summary: "Build a persistent BM25 index from a passages JSONL file",
    load: lazy("index", "indexCommand"),
  },
  {
    name: "search",
    summary: "Search topics against a BM25 index and write a TREC run",
    load: lazy("search", "searchCommand"),
  },
  {
    name: "rerank",
    summary:
      "Rerank a TREC run: listwise, setwise or pointwise LLM, MMR, or the offline lexical stand-in",
    load: lazy("rerank", "rerankCommand"),
  },
  {
    name: "construct",
    summary:
      "Build CRUX evaluation data: passages, requests, sub-questions, ratings, required subset",
    load: lazy("construct", "constructCommand"),
  },
  {
    name: "generate",
    summary: "Generate reports under the oracle budget (RAG, direct, oracle context)",
    load: lazy("generate", "generateCommand"),
  },
  {
    name: "eval",
    summary: "Evaluate TREC runs: trec_eval measures, alpha-nDCG, CRUX coverage and density",
    load: lazy("eval", "evalCommand"),
  },
  {
    name: "judge",
    summary:
      "Judge answerability of question/context pairs (LLM endpoint or offline lexical judge)",
    load: lazy("judge", "judgeCommand"),
  },
  {
    name: "llm",
    summary: "Statistics of the LLM call cache: calls, cache hits, failures, tokens, cost",
    load: lazy("llm", "llmCommand"),
  },
  {
    name: "batch",
    summary:
      "Export pending LLM requests as OpenAI Batch JSONL, import batch results into the cache",
    load: lazy("batch", "batchCommand"),
  },
  {
    name: "report",
    summary: "Build the gallery page (index.html) of an experiment's tables and figures",
    load: lazy("report", "reportCommand"),
  },
  {
    name: "export",
    summary: "Export a workspace table as Parquet, CSV, JSONL or TREC",
    load: lazy("export", "exportCommand"),
  },
  {
    name: "measure",
    summary:
      "A workspace's measures for its stored runs (the evaluator of crux eval), stored in its measure table",
    load: lazy("measure", "measureCommand"),
  },
  {
    name: "nuggets",
    summary: "Nugget evaluation (TREC 2024 RAG): create, label, assign and score nuggets",
    load: lazy("nuggets", "nuggetsCommand"),
  },
  {
    name: "keypoints",
    summary: "Key point recall (Long2RAG): extract, merge, judge and score key points",
    load: lazy("keypoints", "keypointsCommand"),
  },
  {
    name: "subq",
    summary: "Sub-question coverage by type: decompose, classify, judge, score, compare",
    load: lazy("subq", "subqCommand"),
  },
  {
    name: "workspace",
    summary: "Workspace maintenance: migrate an older workspace to the current schema",
    load: lazy("workspace", "workspaceCommand"),
  },
  {
    name: "agreement",
    summary: "Agreement between annotators' label files, and of a judge with their majority",
    load: lazy("agreement", "agreementCommand"),
  },
  {
    name: "compare",
    summary:
      "Evaluation methods side by side: system table, correlations, disagreements, significance",
    load: lazy("compare", "compareCommand"),
  },
  {
    name: "serve",
    summary: "Explore an experiment in the browser: topics, rankings, reports, comparisons",
    load: lazy("serve", "serveCommand"),
  },
  {
    name: "annotate",
    summary: "Human annotation studies: create tasks with per-annotator links, export labels",
    load: lazy("annotate", "annotateCommand"),
  },
];
