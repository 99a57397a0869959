import { createHash } from "node:crypto";

/** What identifies a model call: the same parts always give the same key. */
export interface KeyParts {
  /** Endpoint kind, e.g. `chat`, `embeddings`, `rerank`, `score`. Default `chat`. */
  kind?: string;
  model: string;
  /** Request parameters in wire form (`temperature`, `top_p`, ...); undefined fields are ignored. */
  params: Record<string, unknown>;
  /** Messages (chat) or inputs (other kinds). */
  messages: unknown;
  /** Template `id@version`, when the request came from a template. */
  template?: string;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = canonical(v);
    }
    return out;
  }
  return value;
}

/**
 * The cache key of a model call: SHA-256 (hex) of the canonical JSON of kind,
 * model, parameters, messages and template `id@version`. Object keys are sorted
 * and undefined fields dropped, so `{a: 1, b: undefined}` and `{a: 1}` match.
 * For `chat` the kind is left out of the hashed object, so a key can be
 * recomputed from an OpenAI Batch request body alone.
 *
 * @param parts The identifying parts of the call.
 * @returns 64 lowercase hex characters.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const key = cacheKey({ model: "m", params: { temperature: 0 }, messages: [{ role: "user", content: "hi" }] });
 * assert.equal(key.length, 64);
 * ```
 */
export function cacheKey(parts: KeyParts): string {
  const { kind = "chat", model, params, messages, template } = parts;
  const hashed = kind === "chat"
    ? { model, params, messages, template: template ?? null }
    : { kind, model, params, messages, template: template ?? null };
  return createHash("sha256").update(JSON.stringify(canonical(hashed))).digest("hex");
}
