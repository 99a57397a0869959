/**
 * Reading the entailment protocol's output.
 *
 * @module
 */
import { type ParseResult, parseVerdict } from "@lib/llm/mod.ts";
import type { EntailmentLabel } from "./types.ts";

/** A parsed verdict. */
export interface Verdict {
  label: EntailmentLabel;
  reason: string;
  snippet: string;
}

/**
 * Reads a JSON object `{"label": "yes"|"no"|"neutral", "reason", "snippet"}`
 * or a plain label such as Long2RAG's `[Yes]`, as `parseVerdict` reads them
 * (spellings such as `**Yes**` or `no.` accepted). Any other label is a failure.
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
  const v = parseVerdict(text, ["yes", "no", "neutral"]);
  if (!v.ok) return v;
  const { label, reason, evidence } = v.value;
  return { ok: true, value: { label: label as EntailmentLabel, reason, snippet: evidence } };
}
