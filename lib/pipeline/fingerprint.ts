/**
 * Fingerprints of pipeline stages: a SHA-256 of the stage, its code version,
 * its parameters (canonical JSON: keys sorted, undefined dropped) and the
 * fingerprints of the stages it reads from.
 *
 * @module
 */

/** JSON text with object keys sorted, so equal parameters give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/**
 * The fingerprint of one stage instance.
 *
 * @param id The stage instance (`retrieve:bm25`).
 * @param version The stage code's version (bumped when its output changes).
 * @param params Its parameters (JSON).
 * @param upstream Fingerprints of the stage instances it depends on.
 * @returns 64 hex characters.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageFingerprint } from "@lib/pipeline/mod.ts";
 * const a = await stageFingerprint("retrieve:bm25", 1, { k1: 0.9, b: 0.4 }, []);
 * const b = await stageFingerprint("retrieve:bm25", 1, { b: 0.4, k1: 0.9 }, []);
 * assert.equal(a, b); // key order does not matter
 * ```
 */
export async function stageFingerprint(
  id: string,
  version: number,
  params: unknown,
  upstream: readonly string[],
): Promise<string> {
  const text = canonicalJson({ id, version, params, upstream });
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The top-level parameter keys whose values differ, for "params changed" messages.
 *
 * @param before Parameters recorded last time.
 * @param after Parameters now.
 * @returns Descriptions such as `k1: 0.9 -> 1.2`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paramChanges } from "@lib/pipeline/mod.ts";
 * assert.deepEqual(paramChanges({ k1: 0.9, b: 0.4 }, { k1: 1.2, b: 0.4 }), ["k1: 0.9 -> 1.2"]);
 * ```
 */
export function paramChanges(before: unknown, after: unknown): string[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = (after ?? {}) as Record<string, unknown>;
  if (typeof a !== "object" || typeof b !== "object") return ["parameters"];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
    .filter((k) => canonicalJson(a[k]) !== canonicalJson(b[k]))
    .map((k) => `${k}: ${canonicalJson(a[k])} -> ${canonicalJson(b[k])}`);
}
