/**
 * Reranking of a first-stage run: offline MMR over TF-IDF passage vectors, or
 * a cross-encoder endpoint (the reranker role of the LLM layer).
 *
 * @module
 */
import type { LlmClient } from "@lib/llm/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import { mmrRows } from "./_mmr_rerank.ts";
import { endpointRows } from "./_endpoint_rerank.ts";

/** A reranked run by maximal marginal relevance over TF-IDF vectors (offline). */
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
  /** Passage vectors of the similarity. Only `tfidf` (offline). Default `tfidf`. */
  vectors?: "tfidf";
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

/** A reranked run computed from a first-stage run: `mmr` (offline) or `endpoint`. */
export type RerankConfig = MmrRerankConfig | EndpointRerankConfig;

/** What {@linkcode rerankRun} did. */
export interface RerankSummary {
  run: string;
  /** Run rows written (0 when the run was already in the workspace). */
  written: number;
  skipped: boolean;
}

/** Options of {@linkcode rerankRun}. */
export interface RerankRunOptions {
  /** Client of the reranker role; required by method `endpoint`. */
  client?: LlmClient;
  signal?: AbortSignal;
}

/**
 * Computes a reranked run from a first-stage run in the workspace and stores
 * it. For each topic the top `depth` passages (default 50) of `from` are
 * reordered:
 * - `mmr`: maximal marginal relevance (lambda default 0.5) with min-max
 *   normalised first-stage scores as relevance and the cosine of TF-IDF vectors
 *   (fitted on the topic's candidates) as similarity; scores are `depth - i`
 *   so that score order is MMR order.
 * - `endpoint`: one `client.rerank` call per topic (the topic's request against
 *   the candidates' texts, API `rerank` or `score`), sorted by the returned
 *   scores (kept as run scores; ties by docid descending). Calls are cached in
 *   the workspace's `llm_calls`, so a run recomputed after deletion sends none.
 *   A topic without a request keeps its first-stage order.
 *
 * A run already stored is left untouched (no call is made).
 *
 * @param ws The experiment workspace.
 * @param cfg Run name, first-stage run, method and its settings.
 * @param opts `client` (for `endpoint`), `signal`.
 * @returns Rows written, or `skipped` when the run exists.
 * @throws {RangeError} When the first-stage run is not in the workspace, or the
 *   reranker gives no score for a passage.
 * @throws {TypeError} When method `endpoint` has no client.
 * @example
 * ```ts
 * import { rerankRun } from "@lib/construct/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace; // a workspace with the run "bm25"
 * await rerankRun(ws, { name: "bm25-mmr", from: "bm25", method: "mmr", lambda: 0.5 });
 * ```
 */
export async function rerankRun(
  ws: Workspace,
  cfg: RerankConfig,
  opts: RerankRunOptions = {},
): Promise<RerankSummary> {
  const have = await ws.query<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM runs WHERE run = $1`,
    [cfg.name],
  );
  if (have[0].n > 0) return { run: cfg.name, written: 0, skipped: true };
  const source = await ws.runRows(cfg.from);
  if (source.length === 0) {
    throw new RangeError(
      `Cannot rerank run "${cfg.from}" into "${cfg.name}": the workspace has no run "${cfg.from}"; retrieve it first`,
    );
  }
  const texts = new Map((await ws.passages()).map((p) => [p.passageId, p.text]));
  let rows;
  if (cfg.method === "endpoint") {
    if (!opts.client) {
      throw new TypeError(
        `Cannot rerank "${cfg.from}" into "${cfg.name}" with method "endpoint": no reranker client; pass \`client\` (the reranker role)`,
      );
    }
    const requests = new Map((await ws.topics()).map((t) => [t.topicId, t.request ?? ""]));
    rows = await endpointRows(source, texts, requests, cfg, {
      client: opts.client,
      signal: opts.signal,
    });
  } else {
    rows = mmrRows(source, texts, cfg);
  }
  await ws.insert("runs", rows);
  return { run: cfg.name, written: rows.length, skipped: false };
}
