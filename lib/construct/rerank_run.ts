/**
 * Reranking of a first-stage run: the offline lexical stand-in, MMR over
 * TF-IDF or endpoint vectors, listwise, setwise and pointwise LLM rerankers,
 * or a cross-encoder endpoint (the reranker role of the LLM layer).
 *
 * @module
 */
import type { LlmClient } from "@lib/llm/mod.ts";
import { countRunRows, readWorkspaceSubquestions, type Workspace } from "@lib/store/mod.ts";
import { mmrRows } from "./_mmr_rerank.ts";
import { endpointRows } from "./_endpoint_rerank.ts";
import { countingClient, emptyUsage, type RerankUsage } from "./_counting_client.ts";
import { modelRerankRows } from "./_model_rerank.ts";

export type { RerankUsage } from "./_counting_client.ts";

/**
 * A reranked run by maximal marginal relevance over TF-IDF vectors (offline)
 * or over vectors from the embeddings endpoint (`vectors: "embedder"`, the
 * embedder role; the CRUX paper uses all-mpnet-base-v2).
 */
export interface MmrRerankConfig {
  /** Name of the run written (its reports are generated as `rag-{name}`). */
  name: string;
  /** First-stage run reranked (a `retrieve` entry). */
  from: string;
  method: "mmr";
  /** MMR weight of relevance against novelty. Default 0.5. */
  lambda?: number;
  /** Candidates taken from the top of `from`. Default 50. */
  depth?: number;
  /** Passage vectors of the similarity: `tfidf` (offline) or `embedder` (endpoint). Default `tfidf`. */
  vectors?: "tfidf" | "embedder";
}

/**
 * The offline stand-in for the model rerankers: BM25 over each topic's
 * candidates for the request expanded by the topic's sub-questions (no model).
 */
export interface LexicalRerankConfig {
  /** Name of the run written (its reports are generated as `rag-{name}`). */
  name: string;
  /** First-stage run reranked (a `retrieve` entry). */
  from: string;
  method: "lexical";
  /** Candidates taken from the top of `from`. Default 50. */
  depth?: number;
  /** BM25 `k1` over the candidates. Default 0.9. */
  k1?: number;
  /** BM25 `b` over the candidates. Default 0.4. */
  b?: number;
}

/**
 * A reranked run from an LLM over sliding windows (RankGPT / RankZephyr; the
 * reranker role). `first-token` asks one output token per window and orders the
 * window by the labels' log-probabilities at it (FIRST); where the endpoint
 * returns none it asks again for the generated permutation, counted as `fallback`.
 */
export interface ListwiseRerankConfig {
  name: string;
  from: string;
  method: "listwise" | "first-token";
  /** Candidates taken from the top of `from`. Default 50. */
  depth?: number;
  /** Passages per window. Default 20. */
  window?: number;
  /** Step between windows, at most the window. Default 10. */
  stride?: number;
  /** Passes over the list, each from the bottom up. Default 1. */
  passes?: number;
  /** Words of each passage shown to the model. Default 300. */
  passageWords?: number;
  /**
   * Template id of the window prompt: for `listwise` `rerank_listwise` (default),
   * `rerank_rankzephyr` or `rerank_rankvicuna`; for `first-token` `rerank_first`.
   */
  template?: string;
}

/**
 * A reranked run by setwise heap sort (Zhuang et al.; the reranker role).
 * `setwise-logprobs` picks each set's best by the labels' log-probabilities,
 * falling back to the generated label (counted as `fallback`) where the
 * endpoint returns none.
 */
export interface SetwiseRerankConfig {
  name: string;
  from: string;
  method: "setwise" | "setwise-logprobs";
  /** Candidates taken from the top of `from`. Default 50. */
  depth?: number;
  /** Passages compared at once. Default 4. */
  c?: number;
  /** Candidates selected to the top (the rest follow in first-stage order). Default 10. */
  k?: number;
  /** Words of each passage shown to the model. Default 300. */
  passageWords?: number;
  /** Llama-3.1 tokens of each passage shown instead (llm-rankers: 128). Default: by words. */
  passageTokens?: number;
}

/** A reranked run by an LLM's 0-3 relevance grade per passage (the reranker role). */
export interface PointwiseRerankConfig {
  name: string;
  from: string;
  method: "pointwise";
  /** Candidates taken from the top of `from`. Default 50. */
  depth?: number;
  /** Words of each passage shown to the model. Default 300. */
  passageWords?: number;
}

/** A reranked run from a cross-encoder endpoint (the reranker role; `backend` must be `openai`). */
export interface EndpointRerankConfig {
  /** Name of the run written (its reports are generated as `rag-{name}`). */
  name: string;
  /** First-stage run reranked (a `retrieve` entry). */
  from: string;
  method: "endpoint";
  /** Candidates taken from the top of `from`. Default 50. */
  depth?: number;
  /** Endpoint flavour: `rerank` (Cohere, Jina, vLLM, TEI) or `score` (vLLM). Default `rerank`. */
  api?: "rerank" | "score";
}

/** A reranked run computed from a first-stage run, by any reranker. */
export type RerankConfig =
  | LexicalRerankConfig
  | MmrRerankConfig
  | ListwiseRerankConfig
  | SetwiseRerankConfig
  | PointwiseRerankConfig
  | EndpointRerankConfig;

/**
 * Whether a reranker calls a model: the LLM rerankers, the endpoint and MMR
 * over endpoint vectors; the lexical reranker and TF-IDF MMR call none.
 *
 * @param cfg The reranker.
 * @returns The role whose client it needs, or `null` when it runs offline.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rerankRole } from "@lib/construct/mod.ts";
 * assert.equal(rerankRole({ name: "b+l", from: "bm25", method: "lexical" }), null);
 * assert.equal(rerankRole({ name: "b+m", from: "bm25", method: "mmr", vectors: "embedder" }), "embedder");
 * ```
 */
export function rerankRole(cfg: RerankConfig): "reranker" | "embedder" | null {
  if (cfg.method === "mmr") return cfg.vectors === "embedder" ? "embedder" : null;
  if (cfg.method === "lexical") return null;
  return "reranker";
}

/** What {@linkcode rerankRun} did. */
export interface RerankSummary {
  run: string;
  /** Run rows written (0 when the run was already in the workspace). */
  written: number;
  skipped: boolean;
  /** Model calls and tokens (all zero for the offline rerankers and skipped runs). */
  usage: RerankUsage;
  /**
   * Per-method counts summed over topics: listwise `calls`, `missing`,
   * `repeated`, `unknown`, `unparsed`; setwise `comparisons`, `unparsed`;
   * pointwise `calls`, `unparsed`; lexical `withoutSubquestions` (topics whose
   * request was used alone).
   */
  counts: Record<string, number>;
}

/** Options of {@linkcode rerankRun}. */
export interface RerankRunOptions {
  /**
   * Client of the model the method calls: the reranker role (`endpoint`,
   * `listwise`, `setwise`, `pointwise`) or the embedder role (`mmr` with
   * `vectors: "embedder"`).
   */
  client?: LlmClient;
  /** Folder of prompt templates overriding the built-in ones (LLM methods). */
  templatesDir?: string;
  signal?: AbortSignal;
}

/**
 * Computes a reranked run from a first-stage run in the workspace and stores
 * it. For each topic the top `depth` passages (default 50) of `from` are
 * reordered (scores `depth - i` unless said otherwise):
 * - `lexical` (offline stand-in for the model rerankers): BM25 over the
 *   topic's candidates for its request expanded by its sub-questions.
 * - `mmr`: maximal marginal relevance (lambda default 0.5) with min-max
 *   normalised first-stage scores as relevance and the cosine of TF-IDF vectors
 *   (fitted on the topic's candidates; offline) or of endpoint vectors
 *   (`vectors: "embedder"`) as similarity.
 * - `listwise`, `setwise`, `pointwise`: the LLM rerankers
 *   (`llmListwiseRerank`, `llmSetwiseRerank`, `llmPointwiseRerank`); a failed
 *   call stops the run with nothing stored, repairs and unparsed answers are
 *   counted in `counts`.
 * - `endpoint`: one `client.rerank` call per topic (the topic's request against
 *   the candidates' texts, API `rerank` or `score`), sorted by the returned
 *   scores (kept as run scores; ties by docid descending). Calls are cached in
 *   the workspace's `llm_calls`, so a run recomputed after deletion sends none.
 *   A topic without a request keeps its first-stage order.
 *
 * A run already stored is left untouched (no call is made). Calls and tokens
 * of the model methods are counted in `usage` (cache hits included, so a
 * re-run reports what the run costs, with `cached` saying what was not sent).
 *
 * @param ws The experiment workspace.
 * @param cfg Run name, first-stage run, method and its settings.
 * @param opts `client` (for `endpoint`), `signal`.
 * @returns Rows written, or `skipped` when the run exists.
 * @throws {RangeError} When the first-stage run is not in the workspace, or the
 *   reranker gives no score for a passage.
 * @throws {TypeError} When a model method has no client.
 * @throws {Error} When an LLM reranker's call failed.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rerankRun, retrieveRun, selectRequired } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // retrieval runs for the selected topics
 * await ws.upsert("runs", await retrieveRun(ws, { name: "bm25", k: 100 }));
 * const r = await rerankRun(ws, { name: "bm25-mmr", from: "bm25", method: "mmr", lambda: 0.5 });
 * assert.equal(r.written, (await ws.runRows("bm25-mmr")).length);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function rerankRun(
  ws: Workspace,
  cfg: RerankConfig,
  opts: RerankRunOptions = {},
): Promise<RerankSummary> {
  if (await countRunRows(ws, cfg.name) > 0) {
    return { run: cfg.name, written: 0, skipped: true, usage: emptyUsage(), counts: {} };
  }
  const source = await ws.runRows(cfg.from);
  if (source.length === 0) {
    throw new RangeError(
      `Cannot rerank run "${cfg.from}" into "${cfg.name}": the workspace has no run "${cfg.from}"; retrieve it first`,
    );
  }
  const texts = new Map((await ws.passages()).map((p) => [p.passageId, p.text]));
  const usage = emptyUsage();
  const client = opts.client ? countingClient(opts.client, usage) : undefined;
  let rows;
  let counts: Record<string, number> = {};
  if (cfg.method === "endpoint") {
    if (!client) {
      throw new TypeError(
        `Cannot rerank "${cfg.from}" into "${cfg.name}" with method "endpoint": no reranker client; pass \`client\` (the reranker role)`,
      );
    }
    const requests = new Map((await ws.topics()).map((t) => [t.topicId, t.request ?? ""]));
    rows = await endpointRows(source, texts, requests, cfg, { client, signal: opts.signal });
  } else if (cfg.method === "mmr" && (cfg.vectors ?? "tfidf") === "tfidf") {
    rows = mmrRows(source, texts, cfg);
  } else {
    const requests = new Map((await ws.topics()).map((t) => [t.topicId, t.request ?? ""]));
    const subquestions = new Map<string, string[]>();
    if (cfg.method === "lexical") {
      for (const [topic, qs] of await readWorkspaceSubquestions(ws)) {
        subquestions.set(topic, qs.map((q) => q.text));
      }
    }
    const out = await modelRerankRows({ source, texts, requests, subquestions }, cfg, {
      client,
      templatesDir: opts.templatesDir,
      signal: opts.signal,
    });
    rows = out.rows;
    counts = out.counts;
  }
  await ws.insert("runs", rows);
  return { run: cfg.name, written: rows.length, skipped: false, usage, counts };
}
