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

const LABELS: Record<string, EntailmentLabel> = {
  yes: "yes",
  no: "no",
  neutral: "neutral",
  contradicts: "contradicts",
  contradict: "contradicts",
  contradicted: "contradicts",
  contradiction: "contradicts",
};

/**
 * Reads a JSON object `{"label": "yes"|"no"|"neutral", "reason", "snippet"}`
 * (label case-insensitive, in square brackets or not, as Long2RAG writes
 * `[yes]`; code fences tolerated). `contradicts` (or contradict, contradicted,
 * contradiction) is read only with `contradiction`; any other label is a failure.
 *
 * @param text Model output.
 * @param opts `contradiction`: accept the separate contradiction label (default false).
 * @returns The verdict, or a failure carrying the raw text.
 * @example
 * ```ts
 * import { parseEntailment } from "@lib/keypoints/mod.ts";
 * parseEntailment('{"label": "Yes", "reason": "stated", "snippet": "in 1932"}');
 * // { ok: true, value: { label: "yes", reason: "stated", snippet: "in 1932" } }
 * ```
 */
export function parseEntailment(
  text: string,
  opts: { contradiction?: boolean } = {},
): ParseResult<Verdict> {
  const json = parseJsonValue(text, "object");
  if (!json.ok) return json;
  const o = json.value as Record<string, unknown>;
  const said = typeof o.label === "string"
    ? o.label.trim().toLowerCase().replace(/^\[\s*(.*?)\s*\]$/, "$1").replace(/[.!]+$/, "")
    : "";
  const label = LABELS[said];
  if (!label || (label === "contradicts" && !opts.contradiction)) {
    const allowed = opts.contradiction ? "yes, no, neutral or contradicts" : "yes, no or neutral";
    return { ok: false, raw: text, reason: `label must be ${allowed}, not "${o.label}"` };
  }
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  return { ok: true, value: { label, reason: str(o.reason), snippet: str(o.snippet) } };
}
