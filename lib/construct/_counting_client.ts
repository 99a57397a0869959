/** A model client that tallies the calls made through it (private to `rerankRun`). */
import type { CallRecord, LlmClient } from "@lib/llm/mod.ts";

/** Calls and tokens a reranker's client made or read from the cache. */
export interface RerankUsage {
  /** Model requests the method needed (chat requests and `/rerank` calls; cache hits included). */
  calls: number;
  /** Texts sent to `/embeddings` (in the client's batches; cache hits included). */
  embedded: number;
  /** Chat requests answered from the call cache without HTTP. */
  cached: number;
  /** Failed chat requests. */
  failed: number;
  /** Prompt tokens of the chat answers (cache hits included); null when any answer reports none. */
  promptTokens: number | null;
  /** Completion tokens, as `promptTokens`. */
  completionTokens: number | null;
}

/** A usage with nothing counted yet. */
export function emptyUsage(): RerankUsage {
  return { calls: 0, embedded: 0, cached: 0, failed: 0, promptTokens: 0, completionTokens: 0 };
}

function add(u: RerankUsage, rec: CallRecord<unknown>): void {
  u.calls++;
  if (rec.cached) u.cached++;
  if (rec.status === "failed") u.failed++;
  const p = rec.usage?.promptTokens;
  const c = rec.usage?.completionTokens;
  u.promptTokens = u.promptTokens === null || p === null || p === undefined
    ? null
    : u.promptTokens + p;
  u.completionTokens = u.completionTokens === null || c === null || c === undefined
    ? null
    : u.completionTokens + c;
}

/**
 * The client with `chat`, `chatMany`, `rerank` and `embed` counted into
 * `usage`; every other member is the client's own. `/rerank` and
 * `/embeddings` answers carry no token counts: they add calls (texts embedded)
 * and make the token counts unknown (`null`).
 */
export function countingClient(client: LlmClient, usage: RerankUsage): LlmClient {
  return new Proxy(client, {
    get(target, prop) {
      if (prop === "chat") {
        return async (...args: Parameters<LlmClient["chat"]>) => {
          const rec = await target.chat(...args);
          add(usage, rec);
          return rec;
        };
      }
      if (prop === "chatMany") {
        return async (...args: Parameters<LlmClient["chatMany"]>) => {
          const recs = await target.chatMany(...args);
          for (const r of recs) add(usage, r);
          return recs;
        };
      }
      if (prop === "rerank") {
        return async (...args: Parameters<LlmClient["rerank"]>) => {
          const scores = await target.rerank(...args);
          usage.calls++;
          // The `/rerank` answer reports no tokens: the run's token counts are unknown.
          usage.promptTokens = null;
          usage.completionTokens = null;
          return scores;
        };
      }
      if (prop === "embed") {
        return async (...args: Parameters<LlmClient["embed"]>) => {
          const vectors = await target.embed(...args);
          usage.embedded += args[0].length;
          usage.promptTokens = null;
          usage.completionTokens = null;
          return vectors;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
