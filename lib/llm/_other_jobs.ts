// Jobs for embeddings and cross-encoder endpoints.
import { cacheKey } from "./cache_key.ts";
import type { Job } from "./_call_runner.ts";
import type { Transport } from "./_transport.ts";
import { TransportError } from "./_retry.ts";

export function embedJob(t: Transport, model: string, input: string[], timeoutMs = 60_000): Job {
  return {
    key: cacheKey({ kind: "embeddings", model, params: {}, messages: input }),
    kind: "embeddings",
    model,
    params: {},
    messages: input,
    tokens: Math.ceil(input.reduce((n, s) => n + s.length, 0) / 4),
    send: async (signal) => {
      const { vectors, usage } = await t.embed({ model, input }, { signal, timeoutMs });
      return { response: JSON.stringify(vectors), usage };
    },
  };
}

/** What a rerank or score answer looked like instead, for the error. */
function shapeOf(body: unknown): string {
  if (body === null || typeof body !== "object") return `a ${body === null ? "null" : typeof body}`;
  const keys = Object.keys(body);
  const chat = keys.includes("choices") ? " (it looks like a chat completion)" : "";
  return `an object with keys ${keys.slice(0, 6).join(", ") || "(none)"}${chat}`;
}

/**
 * Reads scores in document order from rerank or score answers of several servers.
 * An answer of another shape is a permanent failure naming the endpoint and the
 * shapes expected.
 */
export function readScores(body: unknown, n: number, endpoint = "the endpoint"): number[] {
  const b = body as Record<string, unknown>;
  const list = Array.isArray(body) ? body : Array.isArray(b?.results) ? b.results : b?.data;
  if (!Array.isArray(list)) {
    throw new TransportError({
      retryable: false,
      message: `Unexpected answer from ${endpoint}: expected {"results": [{"index", ` +
        `"relevance_score"}]} (Cohere, Jina, vLLM, TEI /rerank), {"data": [{"index", "score"}]} ` +
        `(vLLM /score) or a list of {"index", "score"}; got ${shapeOf(body)}. Check that the ` +
        "reranker role points at a reranking endpoint",
    });
  }
  const scores = new Array<number>(n).fill(Number.NaN);
  for (const item of list as Record<string, unknown>[]) {
    const index = Number(item.index);
    const score = Number(item.relevance_score ?? item.score);
    if (Number.isInteger(index) && index >= 0 && index < n) scores[index] = score;
  }
  return scores;
}

export function rerankJob(
  t: Transport,
  o: {
    api: "rerank" | "score";
    path?: string;
    model: string;
    query: string;
    documents: string[];
    timeoutMs?: number;
  },
): Job {
  const body = o.api === "rerank"
    ? { model: o.model, query: o.query, documents: o.documents, top_n: o.documents.length }
    : { model: o.model, text_1: o.query, text_2: o.documents };
  const path = o.path ?? (o.api === "rerank" ? "/rerank" : "/score");
  const inputs = { query: o.query, documents: o.documents };
  return {
    key: cacheKey({ kind: o.api, model: o.model, params: { path }, messages: inputs }),
    kind: o.api,
    model: o.model,
    params: { path },
    messages: inputs,
    tokens: Math.ceil((o.query.length + o.documents.join("").length) / 4),
    send: async (signal) => {
      const answer = await t.post(path, body, { signal, timeoutMs: o.timeoutMs ?? 60_000 });
      const scores = readScores(answer, o.documents.length, `${t.baseUrl}${path}`);
      return { response: JSON.stringify(scores), usage: { promptTokens: 0, completionTokens: 0 } };
    },
  };
}
