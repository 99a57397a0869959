import { matchLabel } from "./match_label.ts";
import { parseJsonValue } from "./parse_json_value.ts";
import type { ParseResult } from "./types.ts";

const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");

/**
 * Reads a JSON (or Python) list of labels, one per item, each from an allowed
 * set; the list is chosen as {@link parseJsonValue} does among lists of
 * strings. Spellings are matched by {@link matchLabel} (`Partial Support`,
 * `**vital**`, `No Support` for `not_support`); the returned labels are spelled
 * as in `allowed`.
 *
 * @param text Model output.
 * @param allowed Allowed labels, e.g. `["vital", "okay"]`.
 * @param opts `count`: exact number of labels expected (default: any).
 * @returns The labels, or a failure (no list, wrong count, unknown label) with the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseLabels("['vital', 'Okay']", ["vital", "okay"], { count: 2 }), { ok: true, value: ["vital", "okay"] });
 * ```
 */
export function parseLabels<L extends string>(
  text: string,
  allowed: readonly L[],
  opts: { count?: number } = {},
): ParseResult<L[]> {
  const list = parseJsonValue(text, "array", { fits: strings });
  if (!list.ok) return list;
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
  if (opts.count !== undefined && labels.length !== opts.count) {
    return {
      ok: false,
      raw: text,
      reason: `expected ${opts.count} labels, found ${labels.length}`,
    };
  }
  return { ok: true, value: labels };
}
