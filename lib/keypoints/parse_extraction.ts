/**
 * Reading the extraction protocol's output.
 *
 * @module
 */
import { parseJsonValue, type ParseResult } from "@lib/llm/mod.ts";

/** A list of objects with a "point" (the shape asked for; `[]` included). */
const points = (v: unknown) =>
  (v as unknown[]).every((x) => typeof (x as { point?: unknown } | null)?.point === "string");

/** One extracted point as the model wrote it. */
export interface RawPoint {
  text: string;
  spans: string[];
}

/**
 * Reads a JSON array of `{"point": string, "spans": [string, ...]}` (code
 * fences and surrounding text tolerated). An item without a non-empty point,
 * or with spans that are not strings, makes the whole answer unparseable
 * (the caller re-asks); `[]` is a valid answer (no further points).
 *
 * @param text Model output.
 * @returns The points, or a failure carrying the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseExtraction } from "@lib/keypoints/mod.ts";
 * assert.deepEqual(parseExtraction('[{"point": "It opened in 1932.", "spans": ["opened in 1932"]}]'), { ok: true, value: [{ text: "It opened in 1932.", spans: ["opened in 1932"] }] });
 * ```
 */
export function parseExtraction(text: string): ParseResult<RawPoint[]> {
  // The last list of points; failing that, any list, so the reason names the bad item.
  let json = parseJsonValue(text, "array", { fits: points });
  if (!json.ok && !/unclosed/.test(json.reason)) {
    const any = parseJsonValue(text, "array");
    if (any.ok) json = any;
  }
  if (!json.ok) return json;
  const out: RawPoint[] = [];
  for (const [i, item] of (json.value as unknown[]).entries()) {
    const o = item as { point?: unknown; spans?: unknown };
    if (!o || typeof o !== "object" || typeof o.point !== "string" || !o.point.trim()) {
      return { ok: false, raw: text, reason: `item ${i + 1} has no "point" string` };
    }
    const spans = o.spans ?? [];
    if (!Array.isArray(spans) || spans.some((s) => typeof s !== "string")) {
      return { ok: false, raw: text, reason: `item ${i + 1}: "spans" must be a list of strings` };
    }
    out.push({ text: o.point.trim(), spans: spans as string[] });
  }
  return { ok: true, value: out };
}
