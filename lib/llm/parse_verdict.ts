// Reads a labelled decision with its reason and span (key point entailment, coverage).

import { matchLabel } from "./match_label.ts";
import { parseJsonValue } from "./parse_json_value.ts";
import { parseLabel } from "./parse_label.ts";
import type { ParseResult } from "./types.ts";
import { finalAnswer } from "./final_answer.ts";
import { revision } from "./revision.ts";

/** A labelled decision with its evidence (key point entailment, sub-question coverage). */
export interface ParsedVerdict {
  label: string;
  /** Short reason, when given (`""` otherwise). */
  reason: string;
  /** Supporting text (`snippet` or `span` field), `""` when none. */
  evidence: string;
}

const labelled = (v: unknown) => typeof (v as { label?: unknown }).label === "string";

/** A field stated in plain text: `Reason: ...`, `**Snippet:** "..."`, `span - ...`. */
const FIELD = /(?:^|(?<=[\s.;,(]))\**(reason|snippet|span|evidence)\**\s*(?::|\s-)\**\s*/gi;

/** Quotes and emphasis around a stated value, and a sentence end after a closing quote. */
function unwrap(value: string): string {
  const v = value.trim().replace(/^\*\*|\*\*$/g, "").trim();
  const quoted = /^["“'‘`](.*)["”'’`][.;,]?$/s.exec(v);
  return (quoted ? quoted[1] : v).trim();
}

/**
 * The reason and evidence an answer states in plain text, field by field: on a
 * line, a field runs to the next field or the end of the line (`Answered. Span:
 * "opened in 1932"`, `Reason: not stated. Snippet: ""`); the first value of
 * each field counts.
 */
function statedFields(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const marks = [...line.matchAll(FIELD)];
    marks.forEach((m, i) => {
      const name = m[1].toLowerCase();
      const from = m.index! + m[0].length;
      const to = i + 1 < marks.length ? marks[i + 1].index! : line.length;
      if (!out.has(name)) out.set(name, unwrap(line.slice(from, to)));
    });
  }
  return out;
}

/**
 * Reads a JSON object `{"label", "reason"?, "snippet"? | "span"?}` whose label
 * is one of `allowed` (spellings matched by {@link matchLabel}), tolerating code
 * fences and surrounding text; the last object with a `label` counts. An answer
 * without any such object may state the label as plain text ({@link parseLabel}:
 * `[Yes]`, `No.`), with its reason and evidence as plain-text fields when it
 * gives them (`Reason: ...`, `Snippet: "..."` or `Span: ...`; empty otherwise).
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
  const revised = revision(finalAnswer(text));
  if (revised) return { ok: false, raw: text, reason: `the answer revises itself: ${revised}` };
  const obj = parseJsonValue(text, "object", { fits: labelled });
  if (!obj.ok) {
    if (/unclosed/.test(obj.reason)) return obj;
    const bare = parseLabel(text, allowed);
    if (!bare.ok) return obj;
    const fields = statedFields(finalAnswer(text));
    return {
      ok: true,
      value: {
        label: bare.value,
        reason: fields.get("reason") ?? "",
        evidence: fields.get("snippet") ?? fields.get("span") ?? fields.get("evidence") ?? "",
      },
    };
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
