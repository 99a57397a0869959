/**
 * Pointwise reranking through a cross-encoder endpoint (`/rerank` or `/score`).
 *
 * @module
 */
import type { LlmClient } from "@lib/llm/mod.ts";
import type { ListwiseQuery } from "./llm_listwise_rerank.ts";

/** The reranked candidates of one query, with each passage's score and the calls made. */
export interface EndpointPointwiseRanking {
  topicId: string;
  /** Candidate ids by score descending (ties in first-stage order), then the rest. */
  docIds: string[];
  /** Endpoint score of each scored passage. */
  scores: Map<string, number>;
  /** `/rerank` (or `/score`) requests of this query (cache hits included). */
  calls: number;
}

/** Options of {@link endpointPointwiseRerank}. */
export interface EndpointPointwiseOptions {
  /** Client of the reranker role (its call cache makes a repeated run send nothing). */
  client: LlmClient;
  /** Endpoint flavour: `rerank` (Cohere, Jina, vLLM, TEI) or `score` (vLLM). Default `rerank`. */
  api?: "rerank" | "score";
  /** Candidates scored per query; the rest keep their order below. Default 100. */
  depth?: number;
  /** Passages per request (a query's candidates are sent in batches of this size). Default 32. */
  batch?: number;
  signal?: AbortSignal;
}

/**
 * Scores each query's top `depth` candidates against its text with the
 * cross-encoder endpoint (miniLM, monoT5 or any model behind a server that
 * speaks `/rerank` or `/score`), in requests of at most `batch` passages, all
 * queries concurrently (the client bounds calls in flight), each request
 * cached. Candidates are ordered by score descending, ties in first-stage
 * order. Requests per query: `ceil(min(N, depth) / batch)`; a query without
 * text or candidates sends none and keeps its order.
 *
 * @param queries The queries and their candidates, best first.
 * @param opts The client, `api`, `depth` (100) and `batch` (32).
 * @returns One ranking per query, in input order.
 * @throws {RangeError} On invalid options, or when the endpoint gives no finite score for a passage.
 * @throws {Error} When a request fails after its retries (answered requests stay cached).
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { endpointPointwiseRerank } from "@lib/construct/mod.ts";
 * import type { LlmClient } from "@lib/llm/mod.ts";
 * declare const client: LlmClient;
 * const [r] = await endpointPointwiseRerank(
 *   [{ topicId: "t1", query: "bridge collapse", candidates: [{ docId: "a", text: "..." }] }],
 *   { client, batch: 16 },
 * );
 * r.calls; // 1
 * ```
 */
export async function endpointPointwiseRerank(
  queries: readonly ListwiseQuery[],
  opts: EndpointPointwiseOptions,
): Promise<EndpointPointwiseRanking[]> {
  const depth = opts.depth ?? 100;
  const batch = opts.batch ?? 32;
  for (const [name, v] of [["depth", depth], ["batch", batch]] as const) {
    if (!Number.isInteger(v) || v < 1) {
      throw new RangeError(`Endpoint rerank ${name} must be a positive integer, got ${v}`);
    }
  }
  return await Promise.all(queries.map(async (q) => {
    const top = q.candidates.slice(0, depth);
    const rest = q.candidates.slice(depth).map((c) => c.docId);
    if (!q.query.trim() || top.length === 0) {
      return {
        topicId: q.topicId,
        docIds: q.candidates.map((c) => c.docId),
        scores: new Map(),
        calls: 0,
      };
    }
    const chunks: (typeof top)[] = [];
    for (let i = 0; i < top.length; i += batch) chunks.push(top.slice(i, i + batch));
    const answers = await Promise.all(
      chunks.map((chunk) =>
        opts.client.rerank(q.query, chunk.map((c) => c.text), {
          api: opts.api,
          signal: opts.signal,
        })
      ),
    );
    const scores = new Map<string, number>();
    chunks.forEach((chunk, j) => {
      if (answers[j].length !== chunk.length) {
        throw new RangeError(
          `The reranker endpoint answered ${
            answers[j].length
          } scores for ${chunk.length} passages ` +
            `of topic "${q.topicId}"; check the endpoint`,
        );
      }
      chunk.forEach((c, i) => {
        const s = answers[j][i];
        if (!Number.isFinite(s)) {
          throw new RangeError(
            `The reranker endpoint gave no score for passage "${c.docId}" of topic "${q.topicId}" (got ${s})`,
          );
        }
        scores.set(c.docId, s);
      });
    });
    const order = top.map((c, pos) => ({ id: c.docId, pos, s: scores.get(c.docId)! }))
      .sort((a, b) => b.s - a.s || a.pos - b.pos)
      .map((x) => x.id);
    return { topicId: q.topicId, docIds: [...order, ...rest], scores, calls: chunks.length };
  }));
}
