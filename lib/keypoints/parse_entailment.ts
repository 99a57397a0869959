/**
 * Reading the entailment protocol's output.
 *
 * @module
 */
import { type ParseResult, parseVerdict } from "@lib/llm/mod.ts";
import type { EntailmentLabel } from "./types.ts";

/** A parsed verdict. */
export interface EntailmentVerdict {
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
 * or a plain label such as Long2RAG's `[Yes]`, as `parseVerdict` reads them
 * (spellings such as `**Yes**` or `no.` accepted). `contradicts` (or contradict,
 * contradicted, contradiction) is read only with `contradiction`; any other label
 * is a failure.
 *
 * @param text Model output.
 * @param opts `contradiction`: accept the separate contradiction label (default false).
 * @returns The verdict, or a failure carrying the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseEntailment } from "@lib/keypoints/mod.ts";
 * assert.deepEqual(parseEntailment('{"label": "Yes", "reason": "stated", "snippet": "in 1932"}'), { ok: true, value: { label: "yes", reason: "stated", snippet: "in 1932" } });
 * ```
 */
export function parseEntailment(
  text: string,
  opts: { contradiction?: boolean } = {},
): ParseResult<EntailmentVerdict> {
  const allowed = opts.contradiction
    ? Object.keys(LABELS)
    : Object.keys(LABELS).filter((k) => LABELS[k] !== "contradicts");
  const v = parseVerdict(text, allowed);
  if (!v.ok) return v;
  const { label, reason, evidence } = v.value;
  return { ok: true, value: { label: LABELS[label], reason, snippet: evidence } };
}
