/**
 * A scripted answer as an endpoint with a token limit sends it: one word
 * counts as one token, and an answer longer than `max_tokens` is cut to that
 * many words and reports `completion_tokens` equal to the limit (as a server
 * does when it stops with `finish_reason: "length"`).
 *
 * @param content The answer the model would give without a limit.
 * @param maxTokens The request's `max_tokens` (no limit when undefined).
 * @returns A reply for the loopback server.
 */
export function withTokenLimit(
  content: string,
  maxTokens: number | undefined,
): { content: string; usage: { prompt_tokens: number; completion_tokens: number } } {
  const tokens = content.match(/\S+\s*/g) ?? [];
  if (maxTokens === undefined || tokens.length <= maxTokens) {
    return { content, usage: { prompt_tokens: 10, completion_tokens: tokens.length } };
  }
  return {
    content: tokens.slice(0, maxTokens).join("").trimEnd(),
    usage: { prompt_tokens: 10, completion_tokens: maxTokens },
  };
}
