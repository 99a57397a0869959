// Log-probabilities of chat answers: reading them from an OpenAI-compatible
// answer, and deciding whether a stored call carries the ones a request asks for.
import type { CallLogprobs, TokenLogprob } from "@lib/store/llm_cache.ts";

/** How many generated tokens' log-probabilities are kept per call. */
export const LOGPROB_TOKENS = 16;

const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

/**
 * The first {@link LOGPROB_TOKENS} tokens of `choice.logprobs.content` (OpenAI and
 * vLLM format), or `null` when the answer has none or they are malformed.
 */
export function readLogprobs(choice: unknown): TokenLogprob[] | null {
  const content = (choice as { logprobs?: { content?: unknown } | null })?.logprobs?.content;
  if (!Array.isArray(content) || content.length === 0) return null;
  const out: TokenLogprob[] = [];
  for (const t of content.slice(0, LOGPROB_TOKENS)) {
    const e = t as { token?: unknown; logprob?: unknown; top_logprobs?: unknown };
    if (typeof e?.token !== "string" || !finite(e.logprob)) return null;
    const top = Array.isArray(e.top_logprobs) ? e.top_logprobs : [];
    const alts = [];
    for (const a of top as { token?: unknown; logprob?: unknown }[]) {
      if (typeof a?.token !== "string" || !finite(a.logprob)) return null;
      alts.push({ token: a.token, logprob: a.logprob });
    }
    out.push({ token: e.token, logprob: e.logprob, top: alts });
  }
  return out;
}

/**
 * Whether a stored call answers a request that asks for `topK` alternatives: a
 * request without log-probabilities takes any call; one with them only a call
 * stored with at least as many asked (an endpoint that returned none counts as
 * answered, so it is not asked again).
 */
export function carriesLogprobs(stored: { logprobs?: CallLogprobs }, topK?: number): boolean {
  if (topK === undefined) return true;
  return stored.logprobs !== undefined && stored.logprobs.topK >= topK;
}
