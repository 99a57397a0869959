// Reads one label per item from a model answer: a JSON list or labels stated one per line.

import { matchLabel } from "./match_label.ts";
import { parseJsonValue } from "./parse_json_value.ts";
import { statedLabels } from "./stated_labels.ts";
import { revision } from "./revision.ts";
import type { ParseResult } from "./types.ts";
import { finalAnswer } from "./final_answer.ts";

const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");

/**
 * Reads a JSON (or Python) list of labels, one per item, each from an allowed
 * set; the list is chosen as {@link parseJsonValue} does among lists of
 * strings. Without such a list, the labels the text states one per line or in
 * a bracketed list of bare words are read as {@link statedLabels} reads them
 * (numbered ones when numbered 1, 2, ... without a gap). Spellings are matched
 * by {@link matchLabel} (`Partial Support`, `**vital**`, `No Support` for
 * `not_support`); the returned labels are spelled as in `allowed`. Reasoning
 * (`<think>` blocks) is not read; an answer that later revises its labels
 * ({@link revision}: `Correction: the second should be support`) is unparsed,
 * never half-corrected.
 *
 * @param text Model output.
 * @param allowed Allowed labels, e.g. `["vital", "okay"]`.
 * @param opts `count`: exact number of labels expected (default: any).
 * @returns The labels, or a failure (no list, wrong count, unknown label) with the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseLabels("['vital', 'Okay']", ["vital", "okay"], { count: 2 }), { ok: true, value: ["vital", "okay"] });
 * assert.deepEqual(parseLabels("1. vital\n2. okay", ["vital", "okay"], { count: 2 }), { ok: true, value: ["vital", "okay"] });
 * ```
 */
export function parseLabels<L extends string>(
  text: string,
  allowed: readonly L[],
  opts: { count?: number } = {},
): ParseResult<L[]> {
  const revised = revision(finalAnswer(text), allowed);
  if (revised) return { ok: false, raw: text, reason: `the answer revises itself: ${revised}` };
  const list = parseJsonValue(text, "array", { fits: strings });
  if (!list.ok) {
    const stated = statedLabels(finalAnswer(text), allowed);
    const labels = stated?.ordered ?? inOrder(stated?.numbered);
    if (!labels) return list;
    return counted(labels, text, opts.count);
  }
  const labels: L[] = [];
  for (const item of list.value as string[]) {
    const label = matchLabel(item, allowed);
    if (!label) {
      return {
        ok: false,
        raw: text,
        reason: `unknown label ${JSON.stringify(item)}; expected ${allowed.join(" | ")}`,
      };
    }
    labels.push(label);
  }
  return counted(labels, text, opts.count);
}

/** The labels, or a failure when there are not `count` of them. */
function counted<L>(labels: L[], text: string, count: number | undefined): ParseResult<L[]> {
  if (count !== undefined && labels.length !== count) {
    return { ok: false, raw: text, reason: `expected ${count} labels, found ${labels.length}` };
  }
  return { ok: true, value: labels };
}

/** Numbered labels in number order when numbered 1, 2, ... without a gap; else undefined. */
function inOrder<L>(numbered: Map<number, L> | undefined): L[] | undefined {
  if (!numbered) return undefined;
  const out: L[] = [];
  for (let i = 1; i <= numbered.size; i++) {
    if (!numbered.has(i)) return undefined;
    out.push(numbered.get(i)!);
  }
  return out;
}
