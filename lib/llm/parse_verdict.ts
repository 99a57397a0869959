import { matchLabel } from "./match_label.ts";
import { parseJsonValue } from "./parse_json_value.ts";
import { parseLabel } from "./parse_label.ts";
import type { ParseResult } from "./types.ts";

/** A labelled decision with its evidence (key point entailment, sub-question coverage). */
export interface ParsedVerdict {
  label: string;
  /** Short reason, when given (`""` otherwise). */
  reason: string;
  /** Supporting text (`snippet` or `span` field), `""` when none. */
  evidence: string;
}

const labelled = (v: unknown) => typeof (v as { label?: unknown }).label === "string";

/**
 * Reads a JSON object `{"label", "reason"?, "snippet"? | "span"?}` whose label
 * is one of `allowed` (spellings matched by {@link matchLabel}), tolerating code
 * fences and surrounding text; the last object with a `label` counts. An answer
 * without any such object may state the label as plain text ({@link parseLabel}:
 * `[Yes]`, `No.`), read with an empty reason and evidence.
 *
 * @param text Model output.
 * @param allowed Allowed labels, e.g. `["yes", "no", "neutral"]`.
 * @returns The verdict, or a failure carrying the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseVerdict('{"label": "Yes", "reason": "stated", "snippet": "rose 3%"}', ["yes", "no", "neutral"]), { ok: true, value: { label: "yes", reason: "stated", evidence: "rose 3%" } });
 * ```
 */
export function parseVerdict(text: string, allowed: readonly string[]): ParseResult<ParsedVerdict> {
  const obj = parseJsonValue(text, "object", { fits: labelled });
  if (!obj.ok) {
    if (/unclosed/.test(obj.reason)) return obj;
    const bare = parseLabel(text, allowed);
    return bare.ok ? { ok: true, value: { label: bare.value, reason: "", evidence: "" } } : obj;
  }
  const o = obj.value as Record<string, unknown>;
  const label = matchLabel(o.label, allowed);
  if (!label) {
    return {
      ok: false,
      raw: text,
      reason: `label ${JSON.stringify(o.label)} is not one of ${allowed.join(" | ")}`,
    };
  }
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  return { ok: true, value: { label, reason: str(o.reason), evidence: str(o.snippet ?? o.span) } };
}
