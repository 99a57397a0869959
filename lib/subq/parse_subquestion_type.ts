/**
 * Reading the type of one sub-question from a model's answer.
 *
 * @module
 */
import type { ParseResult } from "@lib/llm/mod.ts";
import type { SubquestionType } from "@lib/metrics/mod.ts";

const SPELLINGS: Record<string, SubquestionType> = {
  core: "core",
  background: "background",
  "follow-up": "follow-up",
  "follow up": "follow-up",
  followup: "follow-up",
  follow_up: "follow-up",
};

/**
 * Reads the one type an answer names (`core`, `background`, `follow-up`, also
 * written `follow up`, `followup`, in any case, bracketed, quoted or bold).
 * An answer naming no type, or more than one, is unparsed: never guessed.
 *
 * @param text The model's answer.
 * @returns The type, or a failure with the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSubquestionType } from "@lib/subq/mod.ts";
 * assert.deepEqual(parseSubquestionType("**Follow up**"), { ok: true, value: "follow-up" });
 * ```
 */
export function parseSubquestionType(text: string): ParseResult<SubquestionType> {
  const named = new Set<SubquestionType>();
  for (const m of text.toLowerCase().matchAll(/\b(core|background|follow[-_ ]?up)\b/g)) {
    named.add(SPELLINGS[m[1]]);
  }
  if (named.size === 1) return { ok: true, value: [...named][0] };
  return {
    ok: false,
    raw: text,
    reason: named.size
      ? `the answer names several types (${[...named].join(", ")}); expected one`
      : "the answer names no type; expected core, background or follow-up",
  };
}
