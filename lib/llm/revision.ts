/**
 * Finding a later correction in an answer: a model that states a value and
 * then revises it ("Correction: the second should be support") has no single
 * answer, and applying half of the revision would read a value it never
 * stated. Parsers that meet one return a failure instead.
 *
 * @module
 */
import { plainAnswer } from "./plain_answer.ts";

/** A line that opens a revision of what came before. */
const OPENER =
  /^(?:correction|corrected|erratum|errata|oops|scratch\s+that|on\s+(?:second|further)\s+thought|wait\b|i\s+made\s+a\s+mistake|i\s+was\s+wrong|let\s+me\s+(?:fix|correct|revise|redo|amend)|(?:update|edit|amendment|revision)\s*:)/i;
/** A line asking for a value to be changed: `the second should be support`, `change 3 to okay`. */
const CHANGE =
  /\b(?:should\s+(?:instead\s+)?(?:be|read|have\s+been)|change[sd]?\b.*\bto|replace[sd]?\b.*\bwith)\b/i;
/** A list item line: `1. ...`, `- ...`, `[2] ...`, `Nugget 3: ...`. */
const ITEM =
  /^(?:\d+\s*[.:)\]-]|[-*•]\s|\[\s*\d+\s*\]|\(\s*\d+\s*\)|(?:nugget|item|label)\s*#?\d+)/i;

/** A reference to one item of a list: `the second`, `the last`, `item 2`, `nugget #3`, `[4]`. */
const ITEM_REF =
  /\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|(?:item|nugget|label|number|no\.?)\s*#?\d+)\b|#\d+\b|\[\s*\d+\s*\]/i;

/**
 * The line of an answer that revises what it stated before, or undefined: a
 * line opening with `Correction`, `Erratum`, `Wait`, `On second thought`, `Let
 * me fix`, `Update:` ..., or (given the list's `values`) a line that is not a
 * list item and asks for one item to be changed to a value (`the second should
 * be support`, `change item 2 to okay`). Pass the final answer (reasoning
 * removed).
 *
 * @param answer The final answer.
 * @param values The values of a list's items (labels): with them, changes
 *   asked for by item are looked for too.
 * @returns The revising line, trimmed, or undefined.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(revision("1. support\n2. not_support\nCorrection: the second should be support"), "Correction: the second should be support");
 * assert.equal(revision("1. support\n2. not_support\nThe second should be support.", ["support", "not_support"]), "The second should be support.");
 * assert.equal(revision("1. support\n2. not_support"), undefined);
 * ```
 */
export function revision(answer: string, values?: readonly string[]): string | undefined {
  const names = (values ?? []).map((v) =>
    v.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[\s_-]+/g, "[\\s_-]*")
  );
  const named = names.length ? new RegExp(names.map((n) => `\\b${n}\\b`).join("|"), "i") : null;
  for (const line of plainAnswer(answer).split("\n")) {
    const l = line.trim();
    if (!l) continue;
    if (OPENER.test(l)) return l;
    const at = l.search(CHANGE);
    if (named && at >= 0 && !ITEM.test(l) && ITEM_REF.test(l) && named.test(l.slice(at))) return l;
  }
  return undefined;
}
