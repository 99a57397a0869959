// Writes the requests a batch collector took as an OpenAI Batch file and marks them exported.

import type { CallCache } from "./call_cache.ts";
import type { CollectedRequest } from "./batch_collector.ts";

/** What {@link exportCollected} produced. */
export interface CollectedExport {
  /** OpenAI Batch input JSONL (one request a line, trailing newline; `""` when none). */
  jsonl: string;
  /** Requests written. */
  exported: number;
  /** Requests left out because `cache` holds their answer already. */
  cached: number;
}

/**
 * Writes requests a {@link BatchCollector} took as OpenAI Batch input
 * (`{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}`, the
 * format vLLM's batch runner reads too; `custom_id` = cache key) and records each
 * as a `pending` call in `cache`, so `importBatch` stores its answer without the
 * request file. Requests `cache` already answers are left out.
 *
 * @param requests The collected requests.
 * @param cache The workspace's cache (the one the later run reads).
 * @returns The JSONL text and counts.
 * @example
 * ```ts
 * import { BatchCollector, exportCollected } from "@lib/llm/mod.ts";
 * import { openCallCache } from "@lib/llm/mod.ts";
 * const { cache, close } = await openCallCache(await Deno.makeTempDir());
 * const collector = new BatchCollector();
 * const { jsonl, exported } = await exportCollected(collector.requests, cache); // "", 0: none collected
 * await close();
 * ```
 */
export async function exportCollected(
  requests: readonly CollectedRequest[],
  cache: CallCache,
): Promise<CollectedExport> {
  const stored = await cache.getMany(requests.map((r) => r.key));
  const lines: string[] = [];
  const pending = [];
  let cached = 0;
  for (const r of requests) {
    const prior = stored.get(r.key);
    if (prior && (prior.status === "ok" || prior.status === "unparsed")) {
      cached++;
      continue;
    }
    lines.push(JSON.stringify({
      custom_id: r.key,
      method: "POST",
      url: "/v1/chat/completions",
      body: r.body,
    }));
    if (!prior || prior.status !== "pending") pending.push(r.pending);
  }
  await cache.putMany(pending);
  return { jsonl: lines.length ? lines.join("\n") + "\n" : "", exported: lines.length, cached };
}
