// Reads a label from a first line classing the item (`This is a core question.`).

import { matchLabel } from "./match_label.ts";
import { plainAnswer } from "./plain_answer.ts";
import type { ParseResult } from "./types.ts";
import { finalAnswer } from "./final_answer.ts";
import { revision } from "./revision.ts";

/**
 * A first line classing the item: `This is a core question.`, `It is **background**.`,
 * `The sub-question is a follow-up one.` (never `is not a ...`).
 */
const CLASSED =
  /^(?:this|it|the\s+(?:sub-?)?question)\s+is\s+(?:an?\s+)?(\**[\p{L}_-]+(?:[\s_-](?!(?:sub-?)?(?:question|one|item)\b)[\p{L}]+)?\**)(?:\s+(?:sub-?)?(?:question|one|item))?\s*[.!]?$/iu;

/** A line naming the label: `Label: x`, `Final verdict: x`, `Entailment: x`, `Type: x`. */
const NAMED =
  /^(?:final\s+)?(?:label|answer|verdict|judg(?:e)?ment|decision|assessment|type|category|classification|entailment|coverage|importance)\s*:\s*(.+)$/i;

/**
 * The label a text opens with before a stop (`No, the response says 1932.`),
 * unless it is only weighed: a question (`Background? No. Core.`), a turn
 * (`yes, or rather`, `yes - wait`), or a denial naming another label (`core,
 * no: background`).
 */
function openingLabel<L extends string>(text: string, allowed: readonly L[]): L | undefined {
  const m = /^(.*?)(?=[.,;:!?—–]|\s-\s|$)/.exec(text)!;
  const label = matchLabel(m[1], allowed);
  if (!label) return undefined;
  const rest = text.slice(m[1].length).trim();
  if (/^(?:\?|[.,;:!—–-]?\s*(?:wait|actually|rather|or)\b)/i.test(rest)) return undefined;
  const denial = /^[.,;:!—–-]?\s*(?:no|not|nope)\b/i.test(rest);
  const words = (l: string) =>
    new RegExp(
      `\\b${l.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[\s_-]+/g, "[\\s_-]*")}\\b`,
      "i",
    );
  return denial && allowed.some((l) => l !== label && words(l).test(rest.replace(/^\W*\w+/, "")))
    ? undefined
    : label;
}

/**
 * Reads one label an answer states as plain text: the whole answer or its
 * first line is the label (`Yes.`, `**Answered**`, `[No]`), or its first line
 * opens with the label and a stop (`No, the response says 1932.`) or classes the
 * item (`This is a follow-up question.`), or a line
 * `Label|Answer|Verdict|Judgment|Decision|Type|Entailment|...: X` (X alone or
 * opening a sentence: `Answer: yes. The year is given.`), or the answer
 * brackets exactly one distinct label (`[Yes]` in Long2RAG's format, with prose
 * around it). Spellings are matched by {@link matchLabel}. Reasoning
 * (`<think>` blocks) is not read; an answer that revises itself ({@link
 * revision}) is unparsed. Anything else is a failure with the raw text, never
 * a label read from prose (a denied label, `not core`, is none).
 *
 * @param text Model output.
 * @param allowed Allowed labels.
 * @returns The label, or a failure carrying the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseLabel("The response states it. [Yes]", ["yes", "no", "neutral"]), { ok: true, value: "yes" });
 * assert.deepEqual(parseLabel("Answered.", ["answered", "unanswered"]), { ok: true, value: "answered" });
 * ```
 */
export function parseLabel<L extends string>(
  text: string,
  allowed: readonly L[],
): ParseResult<L> {
  const answer = finalAnswer(text);
  const revised = revision(answer);
  if (revised) return { ok: false, raw: text, reason: `the answer revises itself: ${revised}` };
  const lines = plainAnswer(answer).split("\n").filter((l) => l.trim());
  const first = lines[0] ?? "";
  const whole = matchLabel(lines.join(" "), allowed) ?? matchLabel(first, allowed) ??
    openingLabel(first, allowed);
  if (whole) return { ok: true, value: whole };
  // `This is a follow-up question.`: the first line says what the item is.
  const said = CLASSED.exec(first);
  const classed = said ? matchLabel(said[1], allowed) : undefined;
  if (classed) return { ok: true, value: classed };
  const named = new Set<L>();
  for (const line of lines) {
    const m = NAMED.exec(line);
    // The value, or its first clause (`Answer: yes. The response gives the year.`).
    const l = m ? matchLabel(m[1], allowed) ?? openingLabel(m[1], allowed) : undefined;
    if (l) named.add(l);
  }
  const bracketed = new Set<L>();
  for (const m of answer.matchAll(/\[([^\[\]\n]{1,40})\]/g)) {
    const l = matchLabel(m[1], allowed);
    if (l) bracketed.add(l);
  }
  for (const found of [named, bracketed]) {
    if (found.size === 1) return { ok: true, value: [...found][0] };
    if (found.size > 1) {
      return { ok: false, raw: text, reason: `conflicting labels ${[...found].join(", ")}` };
    }
  }
  return { ok: false, raw: text, reason: `no label ${allowed.join(" | ")} stated` };
}
