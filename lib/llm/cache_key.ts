// The cache key of a model call: SHA-256 of model, parameters, messages and template id@version.

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

/** Whether `k` is an array index, which objects enumerate first, in numeric order. */
const isIndex = (k: string) => /^(?:0|[1-9][0-9]*)$/.test(k) && Number(k) < 4294967295;

/**
 * Sorted keys in the order an object built by adding them in that order
 * enumerates them: array indexes first (numerically), then the rest as sorted.
 */
function propertyOrder(sorted: string[]): string[] {
  if (!sorted.some(isIndex)) return sorted;
  const indexes = sorted.filter(isIndex).sort((a, b) => Number(a) - Number(b));
  return [...indexes, ...sorted.filter((k) => !isIndex(k))];
}

/**
 * The JSON text of `value` with every object's keys sorted (by UTF-16 code
 * units, as `Array.prototype.sort`) and undefined fields dropped, written in one
 * pass (keys that are array indexes first, numerically, as an object built in
 * sorted order enumerates them). Equal, character for character, to `JSON.stringify` of a copy whose
 * objects were rebuilt with sorted own enumerable keys (so a `toJSON` method or
 * a Map's entries are not consulted: a Date is written `{}`), which is how keys
 * were always computed.
 *
 * @param value Any value.
 * @returns The JSON text; undefined for undefined, a function or a symbol.
 * @throws {TypeError} On a bigint, as `JSON.stringify` does.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(cacheKeyJson({ b: [1, undefined], a: "x", c: undefined }), '{"a":"x","b":[1,null]}');
 * ```
 */
export function cacheKeyJson(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return JSON.stringify(value);
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ",";
          out += cacheKeyJson(value[i]) ?? "null";
        }
        return out + "]";
      }
      const record = value as Record<string, unknown>;
      const keys = propertyOrder(Object.keys(record).sort());
      let out = "{";
      let first = true;
      for (const k of keys) {
        const v = cacheKeyJson(record[k]);
        if (v === undefined) continue;
        out += (first ? "" : ",") + JSON.stringify(k) + ":" + v;
        first = false;
      }
      return out + "}";
    }
    case "bigint":
      return JSON.stringify(value); // throws, as JSON.stringify does
    default:
      return undefined; // undefined, functions and symbols: left out (null in arrays)
  }
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
  return createHash("sha256").update(cacheKeyJson(hashed)!).digest("hex");
}
