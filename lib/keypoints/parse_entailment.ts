/**
 * Reading the entailment protocol's output.
 *
 * @module
 */
import { parseJsonValue, type ParseResult } from "@lib/llm/mod.ts";
import type { EntailmentLabel } from "./types.ts";

/** A parsed verdict. */
export interface Verdict {
  label: EntailmentLabel;
  reason: string;
  snippet: string;
}

/**
 * Reads a JSON object `{"label": "yes"|"no"|"neutral", "reason", "snippet"}`
 * (label case-insensitive; code fences tolerated). Any other label is a failure.
 *
 * @param text Model output.
 * @returns The verdict, or a failure carrying the raw text.
 * @example
 * ```ts
 * import { parseEntailment } from "@lib/keypoints/mod.ts";
 * parseEntailment('{"label": "Yes", "reason": "stated", "snippet": "in 1932"}');
 * // { ok: true, value: { label: "yes", reason: "stated", snippet: "in 1932" } }
 * ```
 */
export function parseEntailment(text: string): ParseResult<Verdict> {
  const json = parseJsonValue(text, "object");
  if (!json.ok) return json;
  const o = json.value as Record<string, unknown>;
  const label = typeof o.label === "string" ? o.label.trim().toLowerCase() : "";
  if (label !== "yes" && label !== "no" && label !== "neutral") {
    return { ok: false, raw: text, reason: `label must be yes, no or neutral, not "${o.label}"` };
  }
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  return { ok: true, value: { label, reason: str(o.reason), snippet: str(o.snippet) } };
}
