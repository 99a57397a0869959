// Jobs for embeddings and cross-encoder endpoints.
import { cacheKey } from "./cache_key.ts";
import type { Job } from "./_call_runner.ts";
import type { Transport } from "./_transport.ts";

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

/** Reads scores in document order from rerank or score answers of several servers. */
export function readScores(body: unknown, n: number): number[] {
  const b = body as Record<string, unknown>;
  const list = Array.isArray(body) ? body : Array.isArray(b?.results) ? b.results : b?.data;
  if (!Array.isArray(list)) throw new Error("answer has no results, data or list of scores");
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
      const scores = readScores(answer, o.documents.length);
      return { response: JSON.stringify(scores), usage: { promptTokens: 0, completionTokens: 0 } };
    },
  };
}
