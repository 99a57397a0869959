/**
 * Reading the type of one sub-question from a model's answer.
 *
 * @module
 */
import { finalAnswer, parseLabel, type ParseResult, plainAnswer } from "@lib/llm/mod.ts";
import type { SubquestionType } from "@lib/metrics/mod.ts";

const SPELLINGS: Record<string, SubquestionType> = {
  core: "core",
  background: "background",
  "follow-up": "follow-up",
  "follow up": "follow-up",
  followup: "follow-up",
  follow_up: "follow-up",
};

const TYPES: SubquestionType[] = ["core", "background", "follow-up"];

/** In a clause before a type: it is denied (`not a follow-up`, `isn't core`, `rather than background`). */
const DENIED = /\b(?:not|never|no|neither|nor|than|instead\s+of|without)\b|n't\b/i;

/** After a type: it is only weighed (`Core? No.`, `core, no wait`, `background or core`). */
const WEIGHED = /^[\s"'*\]]*(?:\?|[,.;:—–-]?\s*(?:no|not|nope|wait|actually|rather|or)\b)/i;

/**
 * Reads the one type an answer states (`core`, `background`, `follow-up`, also
 * written `follow up`, `followup`, in any case, bracketed, quoted or bold):
 * a label line or first line that is the type (`Type: core`, `Core.`, `This is
 * a follow-up question.`), else the one type the answer names. A type named
 * only to deny or weigh it (`not core`, `It is not a follow-up question`,
 * `Background? No.`) is no type: without a label line, an answer that denies
 * or weighs a type is unparsed, and so is one naming no type or several.
 * Reasoning (`<think>` blocks) is not read. Never guessed.
 *
 * @param text The model's answer.
 * @returns The type, or a failure with the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSubquestionType } from "@lib/subq/mod.ts";
 * assert.deepEqual(parseSubquestionType("**Follow up**"), { ok: true, value: "follow-up" });
 * assert.equal(parseSubquestionType("It is not a follow-up question; it is central to the main question.").ok, false);
 * ```
 */
export function parseSubquestionType(text: string): ParseResult<SubquestionType> {
  const answer = plainAnswer(finalAnswer(text)).replace(/\bfollow[-_ ]?up\b/gi, "follow-up");
  const stated = parseLabel(answer, TYPES);
  if (stated.ok) return stated;
  const named = new Set<SubquestionType>();
  let denied = false;
  for (const m of answer.matchAll(/\b(core|background|follow-up)\b/gi)) {
    const before = answer.slice(0, m.index);
    const clause = before.slice(
      Math.max(...[".", ";", ":", ",", "!", "?", "\n"].map((c) => before.lastIndexOf(c))) + 1,
    );
    const after = answer.slice(m.index + m[0].length);
    if (DENIED.test(clause) || WEIGHED.test(after)) denied = true;
    else named.add(SPELLINGS[m[1].toLowerCase()]);
  }
  if (named.size === 1 && !denied) return { ok: true, value: [...named][0] };
  return {
    ok: false,
    raw: text,
    reason: denied
      ? "the answer denies a type without stating one on a label line; expected core, background or follow-up"
      : named.size
      ? `the answer names several types (${[...named].join(", ")}); expected one`
      : "the answer names no type; expected core, background or follow-up",
  };
}
