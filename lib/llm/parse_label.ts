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
  const revised = revision(answer, allowed);
  if (revised) return { ok: false, raw: text, reason: `the answer revises itself: ${revised}` };
  const lines = plainAnswer(answer).split("\n").filter((l) => l.trim());
  const first = lines[0] ?? "";
  const whole = matchLabel(lines.join(" "), allowed) ?? matchLabel(first, allowed) ??
    matchLabel(first.split(/[.,;:!?—–]|\s-\s/)[0], allowed);
  if (whole) return { ok: true, value: whole };
  // `This is a follow-up question.`: the first line says what the item is.
  const said = CLASSED.exec(first);
  const classed = said ? matchLabel(said[1], allowed) : undefined;
  if (classed) return { ok: true, value: classed };
  const named = new Set<L>();
  for (const line of lines) {
    const m = NAMED.exec(line);
    // The value, or its first clause (`Answer: yes. The response gives the year.`).
    const l = m
      ? matchLabel(m[1], allowed) ?? matchLabel(m[1].split(/[.,;!?—–]|\s-\s/)[0], allowed)
      : undefined;
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
