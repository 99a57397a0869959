// Token counts a server reports, checked; private to `@lib/llm`.
import type { Usage } from "./types.ts";

const count = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null;

/**
 * The usage object of an OpenAI-style answer as recorded: a count that is missing,
 * negative or not a finite number is unknown (null), never a made-up 0.
 */
export function reportedUsage(u: unknown): Usage {
  const o = (u !== null && typeof u === "object" ? u : {}) as Record<string, unknown>;
  return { promptTokens: count(o.prompt_tokens), completionTokens: count(o.completion_tokens) };
}
