// Batch export: writes the requests the cache cannot answer as an OpenAI Batch JSONL file.

import { carriesLogprobs } from "./_logprobs.ts";
import type { CallCache } from "./call_cache.ts";
import type { LlmClient } from "./llm_client.ts";
import type { ChatRequest } from "./types.ts";

/** What {@link exportBatch} produced. */
export interface BatchExport {
  /** OpenAI Batch input JSONL (one request a line, trailing newline; `""` when nothing is pending). */
  jsonl: string;
  /** Requests written (distinct cache keys not yet answered). */
  exported: number;
  /** Requests skipped because the cache already holds their answer. */
  cached: number;
}

/**
 * Exports the requests that the cache cannot answer as OpenAI Batch input
 * (`{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}`),
 * with `custom_id` = cache key and `body` exactly what the client would send.
 * Each exported request is stored as a `pending` call, so its results can be
 * imported with {@link importBatch} without the request file.
 *
 * @param requests Requests (e.g. rendered templates).
 * @param client Client whose model and defaults build the bodies.
 * @param cache Cache to check and to record pending calls in.
 * @returns The JSONL text and counts.
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { type CallCache, type ChatRequest, exportBatch, type LlmClient } from "@lib/llm/mod.ts";
 * declare const client: LlmClient;
 * declare const cache: CallCache;
 * const requests: ChatRequest[] = [{ messages: [{ role: "user", content: "2+2?" }] }];
 * const { jsonl, exported } = await exportBatch(requests, client, cache);
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/batch.jsonl`, jsonl);
 * ```
 */
export async function exportBatch(
  requests: readonly ChatRequest[],
  client: LlmClient,
  cache: CallCache,
): Promise<BatchExport> {
  const jobs = requests.map((r) => client.prepareChat(r));
  const stored = await cache.getMany(jobs.map((j) => j.key));
  const seen = new Set<string>();
  const lines: string[] = [];
  let cached = 0;
  const pending = [];
  for (const job of jobs) {
    const prior = stored.get(job.key);
    if (
      prior && (prior.status === "ok" || prior.status === "unparsed") &&
      carriesLogprobs(prior, job.topLogprobs)
    ) {
      cached++;
      continue;
    }
    if (seen.has(job.key)) continue;
    seen.add(job.key);
    lines.push(
      JSON.stringify({
        custom_id: job.key,
        method: "POST",
        url: "/v1/chat/completions",
        body: job.body,
      }),
    );
    if (!prior) {
      const logprobs = job.topLogprobs === undefined
        ? {}
        : { logprobs: { topK: job.topLogprobs, tokens: null } };
      pending.push({
        ...logprobs,
        key: job.key,
        model: job.model,
        endpoint: `${client.endpoint} batch`,
        template: job.template,
        params: job.params,
        messages: job.messages,
        response: "",
        usage: { promptTokens: 0, completionTokens: 0 },
        status: "pending" as const,
        attempts: 0,
        latencyMs: 0,
      });
    }
  }
  await cache.putMany(pending);
  return { jsonl: lines.length ? lines.join("\n") + "\n" : "", exported: lines.length, cached };
}
