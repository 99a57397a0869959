// Batch import: stores the answers of an OpenAI Batch output file in the call cache.

import { reportedUsage } from "./_usage.ts";
import type { CallCache, StoredCall } from "./call_cache.ts";
import { cacheKey } from "./cache_key.ts";
import { carriesLogprobs, readLogprobs } from "./_logprobs.ts";

/** What {@link importBatch} stored. */
export interface BatchImport {
  /** Answers stored as `ok`. */
  ok: number;
  /** Lines with an error or a non-200 status, stored as `failed` (retried by the next online run). */
  failed: number;
  /** Lines whose result was already stored as `ok` (left unchanged). */
  unchanged: number;
}

interface OutputLine {
  custom_id?: string;
  response?: { status_code?: number; body?: Record<string, unknown> } | null;
  error?: { message?: string; code?: string } | null;
}

/**
 * Imports an OpenAI Batch output file (`{"id", "custom_id", "response":
 * {"status_code", "body"}, "error"}` per line, as written by OpenAI/Azure Batch
 * or vLLM's batch runner) into the cache, so the online path then finds every
 * answer there and sends nothing. Each `custom_id` must be a cache key exported
 * by `exportBatch` (a `pending` call) or appear in `requests` (the batch input
 * text), whose body is checked against the key.
 *
 * @param text Output JSONL.
 * @param cache The cache.
 * @param opts `file` for error messages; `requests`: batch input JSONL text (optional).
 * @returns Counts of stored answers.
 * @throws {SyntaxError} Listing every bad or unknown line (`file:line: message`); nothing is stored then.
 * @example
 * ```ts ignore
 * // Not run as a test: it reads a batch output file the user brings.
 * import { type CallCache, importBatch } from "@lib/llm/mod.ts";
 * declare const cache: CallCache;
 * const { ok, failed } = await importBatch(await Deno.readTextFile("out.jsonl"), cache, { file: "out.jsonl" });
 * ```
 */
export async function importBatch(
  text: string,
  cache: CallCache,
  opts: { file: string; requests?: string },
): Promise<BatchImport> {
  const bodies = new Map<string, Record<string, unknown>>();
  for (const line of (opts.requests ?? "").split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { custom_id: string; body: Record<string, unknown> };
    bodies.set(r.custom_id, r.body);
  }
  const lines: [number, OutputLine][] = [];
  const problems: string[] = [];
  text.split("\n").forEach((l, i) => {
    if (!l.trim()) return;
    try {
      const o = JSON.parse(l) as OutputLine;
      if (typeof o.custom_id !== "string") {
        problems.push(`${opts.file}:${i + 1}: custom_id: missing`);
      } else lines.push([i + 1, o]);
    } catch {
      problems.push(`${opts.file}:${i + 1}: line is not valid JSON`);
    }
  });
  const stored = await cache.getMany(lines.map(([, o]) => o.custom_id!));
  const calls: StoredCall[] = [];
  let unchanged = 0;
  for (const [n, o] of lines) {
    const key = o.custom_id!;
    let base = stored.get(key);
    const body = bodies.get(key);
    const asked = body?.logprobs === true ? Number(body.top_logprobs ?? 0) : base?.logprobs?.topK;
    if (base?.status === "ok" && carriesLogprobs(base, asked)) {
      unchanged++;
      continue;
    }
    if (!base && body) {
      const { model, messages, logprobs: _lp, top_logprobs: _top, ...params } = body;
      if (cacheKey({ model: String(model), params, messages }) !== key) {
        problems.push(
          `${opts.file}:${n}: custom_id ${key} does not match its request body (templated requests must be exported by crux)`,
        );
        continue;
      }
      base = {
        key,
        model: String(model),
        endpoint: "batch",
        params,
        messages,
        response: "",
        usage: { promptTokens: 0, completionTokens: 0 },
        status: "pending",
        attempts: 0,
        latencyMs: 0,
      };
    }
    if (!base) {
      problems.push(
        `${opts.file}:${n}: custom_id ${key} is not a pending request of this workspace; pass the batch input file`,
      );
      continue;
    }
    const res = o.response;
    const choice = (res?.body?.choices as { message?: { content?: string } }[] | undefined)?.[0];
    const usage = res?.body?.usage as
      | { prompt_tokens?: number; completion_tokens?: number }
      | undefined;
    if (!o.error && res?.status_code === 200 && choice) {
      const answered: StoredCall = {
        ...base,
        response: choice.message?.content ?? "",
        status: "ok",
        attempts: base.attempts + 1,
        usage: reportedUsage(usage),
        error: undefined,
      };
      if (asked !== undefined) answered.logprobs = { topK: asked, tokens: readLogprobs(choice) };
      calls.push(answered);
    } else {
      const why = o.error?.message ?? `status ${res?.status_code ?? "missing"}`;
      calls.push({
        ...base,
        status: "failed",
        attempts: base.attempts + 1,
        error: `Batch request failed: ${why}`,
      });
    }
  }
  if (problems.length) {
    const line = (p: string) => Number(/:(\d+):/.exec(p)?.[1] ?? 0);
    problems.sort((a, b) => line(a) - line(b));
    throw new SyntaxError(
      `Cannot import batch output "${opts.file}": ${problems.length} problem(s)\n${
        problems.join("\n")
      }`,
    );
  }
  await cache.putMany(calls);
  return {
    ok: calls.filter((c) => c.status === "ok").length,
    failed: calls.filter((c) => c.status === "failed").length,
    unchanged,
  };
}
