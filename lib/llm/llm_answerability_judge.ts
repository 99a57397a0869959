// The model-based answerability judge: rates texts against questions 0-5 with the CRUX prompt.

import type { LlmClient } from "./llm_client.ts";
import { answerabilityRequests } from "./answerability_requests.ts";
import { parseRating } from "./parse_rating.ts";
import type { AnswerabilityJudge, AnswerabilityResult } from "./types.ts";

/** Options of {@link llmAnswerabilityJudge}. */
export interface LlmAnswerabilityOptions {
  /** Folder of replacement templates. Default: built-in only. */
  templatesDir?: string;
  /** Template id. Default `answerability`. */
  template?: string;
  /** Re-asks after an unparseable answer (at temperature 0.2). Default 0 (the protocol's rule: -1). */
  reasks?: number;
}

/**
 * The model-based answerability judge (CRUX step 4): renders the
 * `answerability` template for each pair, sends all pairs through the client
 * (cached, concurrent, retried) and reads the stated rating 0-5 (`parseRating`). Unparseable
 * answers become rating -1 with status `unparsed` and the raw text; calls that
 * fail after their retries become -1 with status `failed`, `raw` null and the
 * reason in `error` (the API key redacted).
 *
 * @param client The client (its model is the judge name).
 * @param opts Template and re-ask settings; see {@link LlmAnswerabilityOptions}.
 * @returns A judge.
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { type CallCache, LlmClient, llmAnswerabilityJudge } from "@lib/llm/mod.ts";
 * import type { ProgressFn } from "@lib/llm/mod.ts";
 * declare const cache: CallCache;
 * declare const onProgress: ProgressFn;
 * const baseUrl = "http://localhost:8000/v1";
 * const pairs = [{ id: "1", question: "Who won?", context: "Ann won." }];
 * const judge = llmAnswerabilityJudge(new LlmClient({ baseUrl, model: "llama", cache }));
 * const results = await judge.rate(pairs, { onProgress });
 * ```
 */
export function llmAnswerabilityJudge(
  client: LlmClient,
  opts: LlmAnswerabilityOptions = {},
): AnswerabilityJudge {
  return {
    name: client.model,
    async rate(pairs, { signal, onProgress } = {}) {
      const requests = await answerabilityRequests(pairs, opts);
      const records = await client.chatMany(requests, {
        signal,
        onProgress,
        step: "answerability",
        parse: parseRating,
        reasks: opts.reasks ?? 0,
      });
      return records.map((r, i): AnswerabilityResult => {
        const base = { id: pairs[i].id, judge: client.model, raw: r.text };
        if (r.status === "failed") {
          const error = r.error ?? "The call failed without an error message";
          return { ...base, rating: -1, status: "failed", raw: null, error };
        }
        if (r.parsed?.ok) return { ...base, rating: r.parsed.value as number, status: "ok" };
        return { ...base, rating: -1, status: "unparsed" };
      });
    },
  };
}
