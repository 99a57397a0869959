// Reads the contents of `<tag>...</tag>` elements of a model answer.

import type { ParseResult } from "./types.ts";
import { finalAnswer } from "./final_answer.ts";

/**
 * Reads the contents of every `<tag>...</tag>` in an output (`<p>`, `<q>`, `<r>`),
 * trimmed, empty ones dropped. Matching is case-insensitive and spans lines; an
 * unclosed final tag counts up to the end of the text (outputs cut by the token
 * limit).
 *
 * @param text Model output.
 * @param tag Tag name without brackets, e.g. `q`.
 * @returns The contents in order, or a failure when no non-empty tag is found.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseTagged("<q>Who?</q>\n<q>When?</q>", "q"), { ok: true, value: ["Who?", "When?"] });
 * ```
 */
export function parseTagged(text: string, tag: string): ParseResult<string[]> {
  const t = tag.replace(/[^A-Za-z0-9_-]/g, "");
  const re = new RegExp(`<${t}>([\\s\\S]*?)(?:</${t}>|(?=<${t}>)|$)`, "gi");
  const items = [...finalAnswer(text).matchAll(re)].map((m) => m[1].trim()).filter(Boolean);
  if (!items.length) return { ok: false, raw: text, reason: `no <${t}> tags found` };
  return { ok: true, value: items };
}
