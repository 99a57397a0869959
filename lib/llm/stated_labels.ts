/**
 * Reading labels a model states outside a JSON list: a bracketed list of bare
 * words, or one label per line (numbered, bulleted or alone on its line).
 *
 * @module
 */
import { matchLabel } from "./match_label.ts";
import { finalAnswer } from "./final_answer.ts";

/** Labels read from text: by their stated number, or in order when unnumbered. */
export type StatedLabels<L extends string> =
  | { numbered: Map<number, L>; ordered?: undefined }
  | { ordered: L[]; numbered?: undefined };

/** `1. x`, `2) x`, `3: x`, `(4) x`, `[5] x`, `#6 x`, `Nugget 7: x`, `Item 8 - x`. */
const NUMBERED =
  /^(?:\(\s*(\d+)\s*\)|\[\s*(\d+)\s*\]|#\s*(\d+)\s*[.:)-]?|(?:nugget|item|label)?\s*#?\s*(\d+)\s*[.:)\]-])\s*(.*)$/i;
/** `- x`, `* x`, `• x`. */
const BULLET = /^[-*•]\s+(.*)$/;
/** Where a label may be set apart from a note or from the item it labels. */
const SEPARATOR = /\s+[-–—]+\s+|:\s+|\s*(?:->|=>|→)\s*|\s+\(/;

/**
 * The label an item line states: the whole item, else what comes before its
 * first separator or after its last (`support - the answer says so`,
 * `ice is cold: support`); undefined when neither is a label, or when the rest
 * of the line names another label (`support - or rather not_support`).
 */
function itemLabel<L extends string>(item: string, allowed: readonly L[]): L | undefined {
  const whole = matchLabel(item, allowed);
  if (whole) return whole;
  const parts = item.split(SEPARATOR);
  if (parts.length < 2) return undefined;
  const first = matchLabel(parts[0], allowed);
  const last = matchLabel(parts[parts.length - 1].replace(/\)\s*$/, ""), allowed);
  const label = first ?? last;
  if (!label) return undefined;
  const rest = (first ? parts.slice(1) : parts.slice(0, -1)).join(" ");
  return [...mentioned(rest, allowed)].every((l) => l === label) ? label : undefined;
}

/** Words of a text or label, lower case, split at anything but letters and digits. */
const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * The labels a note names as words, the longest at each place (`does not
 * support` names `not_support`, not `support`), `no X` standing for `not X`;
 * a label denied (`not vital`, where `not_vital` is no label) is not named.
 */
function mentioned<L extends string>(note: string, allowed: readonly L[]): Set<L> {
  const forms = allowed.flatMap((l) => {
    const w = words(l);
    return w[0] === "not" ? [{ l, w }, { l, w: ["no", ...w.slice(1)] }] : [{ l, w }];
  }).sort((a, b) => b.w.length - a.w.length);
  const text = words(note);
  const out = new Set<L>();
  for (let i = 0; i < text.length;) {
    const hit = forms.find((f) => f.w.every((w, k) => text[i + k] === w));
    // A label denied (`okay - not vital`) is not named.
    if (hit && !(i > 0 && (text[i - 1] === "not" || text[i - 1] === "no"))) out.add(hit.l);
    i += hit ? hit.w.length : 1;
  }
  return out;
}

/** A list in square brackets whose comma-separated items are all bare labels. */
function bracketed<L extends string>(text: string, allowed: readonly L[]): L[] | undefined {
  const found: L[][] = [];
  for (const m of text.matchAll(/\[([^[\]]*)\]/g)) {
    const items = m[1].split(",").map((s) => s.trim());
    if (items.length === 0 || items.some((s) => !s)) continue;
    const labels = items.map((s) => matchLabel(s, allowed));
    if (labels.every((l) => l !== undefined)) found.push(labels as L[]);
  }
  if (found.length === 0) return undefined;
  const first = JSON.stringify(found[0]);
  return found.every((f) => JSON.stringify(f) === first) ? found[0] : undefined;
}

/**
 * Labels stated in text that holds no JSON list: a bracketed list of bare
 * labels (`[support, not_support]`, read when every bracketed list of labels in
 * the text is the same), else one label per item line. Item lines are numbered
 * (`1. support`, `Nugget 2: okay`), bulleted (`- vital`) or a label alone on its
 * line; a label may carry a note after a separator (`1. support - stated in
 * the second paragraph`) or follow the item it labels (`1. ice melts: support`).
 * Other lines (an introduction, a closing remark) are passed over, but a
 * numbered or bulleted line without a label, a number given twice, numbered
 * beside unnumbered labels, or two different labels on one line make the whole
 * answer unreadable: nothing is guessed. Reasoning (`<think>` blocks) is not
 * read.
 *
 * @param text Model output.
 * @param allowed Allowed labels, spelled as they are returned.
 * @returns The labels by number or in order, or undefined when none are stated
 *   readably.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statedLabels } from "@lib/llm/mod.ts";
 * const read = statedLabels("Labels:\n1. Vital\n2. okay", ["vital", "okay"]);
 * assert.deepEqual([...read!.numbered!], [[1, "vital"], [2, "okay"]]);
 * assert.deepEqual(statedLabels("[vital, okay]", ["vital", "okay"]), { ordered: ["vital", "okay"] });
 * assert.equal(statedLabels("1. vital\n2. it depends", ["vital", "okay"]), undefined);
 * ```
 */
export function statedLabels<L extends string>(
  text: string,
  allowed: readonly L[],
): StatedLabels<L> | undefined {
  text = finalAnswer(text);
  const list = bracketed(text, allowed);
  if (list) return { ordered: list };
  const numbered = new Map<number, L>();
  const ordered: L[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim().replace(/^\*\*(.*)\*\*$/, "$1");
    if (!line || line.startsWith("```")) continue;
    const n = NUMBERED.exec(line);
    if (n) {
      const number = Number(n[1] ?? n[2] ?? n[3] ?? n[4]);
      const label = itemLabel(n[5], allowed);
      if (!label || numbered.has(number)) return undefined;
      numbered.set(number, label);
      continue;
    }
    const b = BULLET.exec(line);
    if (b) {
      const label = itemLabel(b[1], allowed);
      if (!label) return undefined;
      ordered.push(label);
      continue;
    }
    const alone = matchLabel(line, allowed);
    if (alone) ordered.push(alone);
  }
  if (numbered.size && ordered.length) return undefined;
  if (numbered.size) return { numbered };
  return ordered.length ? { ordered } : undefined;
}
