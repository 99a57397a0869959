import { parseJsonValue } from "./parse_json_value.ts";
import type { ParseResult } from "./types.ts";

/** Lower-cases and turns spaces and hyphens into one form, so `Partial Support` matches `partial_support`. */
const norm = (s: string) => s.trim().toLowerCase().replace(/[\s_-]+/g, "_");

/**
 * Reads a JSON list of labels, one per item, each from an allowed set. Labels
 * are compared case-insensitively with spaces, hyphens and underscores treated
 * alike; the returned labels are spelled as in `allowed`.
 *
 * @param text Model output.
 * @param allowed Allowed labels, e.g. `["vital", "okay"]`.
 * @param opts `count`: exact number of labels expected (default: any).
 * @returns The labels, or a failure (no list, wrong count, unknown label) with the raw text.
 * @example
 * ```ts
 * parseLabels('["vital", "Okay"]', ["vital", "okay"], { count: 2 }); // { ok: true, value: ["vital", "okay"] }
 * ```
 */
export function parseLabels(
  text: string,
  allowed: readonly string[],
  opts: { count?: number } = {},
): ParseResult<string[]> {
  const list = parseJsonValue(text, "array");
  if (!list.ok) return list;
  const byNorm = new Map(allowed.map((a) => [norm(a), a]));
  const labels: string[] = [];
  for (const item of list.value as unknown[]) {
    const label = typeof item === "string" ? byNorm.get(norm(item)) : undefined;
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
