/**
 * Reading a list of texts a model writes as numbered or bulleted lines instead
 * of the JSON list it was asked for.
 *
 * @module
 */
import { finalAnswer } from "./final_answer.ts";

/** `1. x`, `2) x`, `(3) x`, `4: x`. */
const NUMBERED = /^(?:\((\d+)\)|(\d+)[.)]|(\d+)\s*:)\s+(.+)$/;
/** `- x`, `* x`, `• x`. */
const BULLET = /^[-*•]\s+(.+)$/;

/** An item without the emphasis or quotes around all of it. */
function unwrap(item: string): string {
  let s = item.trim();
  for (let again = true; again;) {
    const m = /^\*\*(.+)\*\*$/s.exec(s) ?? /^"(.+)"[,.]?$/s.exec(s) ?? /^“(.+)”[,.]?$/s.exec(s);
    again = m !== null;
    if (m) s = m[1].trim();
  }
  return s;
}

/**
 * The items of a list written one per line: numbered `1.`, `2.`, ... (or
 * `1)`, `(1)`, `1:`) without a gap, or bulleted (`-`, `*`, `•`), each item's
 * emphasis or quotes removed. Prose may come before the first item and after
 * the last, blank lines and code fences anywhere. Anything that makes the list
 * unclear leaves it unread: a line of prose between items (an item continued
 * on the next line included), numbered beside bulleted items, or numbers out of
 * order. Reasoning (`<think>` blocks) is not read.
 *
 * @param text Model output.
 * @returns The items, or undefined when the text holds no such list.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statedList } from "@lib/llm/mod.ts";
 * assert.deepEqual(statedList("Nuggets:\n1. Ice melts\n2. **Dust rises**\n\nDone."), ["Ice melts", "Dust rises"]);
 * assert.equal(statedList("1. Ice melts\nand keeps melting\n2. Dust rises"), undefined);
 * ```
 */
export function statedList(text: string): string[] | undefined {
  const items: string[] = [];
  let kind: "numbered" | "bulleted" | undefined;
  let ended = false; // prose came after an item
  for (const raw of finalAnswer(text).split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("```")) continue;
    const n = NUMBERED.exec(line);
    const b = n ? null : BULLET.exec(line);
    if (!n && !b) {
      if (items.length) ended = true;
      continue;
    }
    const lineKind = n ? "numbered" : "bulleted";
    if (ended || (kind && kind !== lineKind)) return undefined;
    kind = lineKind;
    if (n && Number(n[1] ?? n[2] ?? n[3]) !== items.length + 1) return undefined;
    const item = unwrap(n ? n[4] : b![1]);
    if (!item) return undefined;
    items.push(item);
  }
  return items.length ? items : undefined;
}
