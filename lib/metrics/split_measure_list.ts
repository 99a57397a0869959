/**
 * Splitting of measure lists as typed on a command line.
 *
 * @module
 */

/**
 * Splits a list of measures separated by spaces or commas, keeping commas
 * inside parentheses (`"P@10, Den(tau=4,w=1)@10"` -> `["P@10", "Den(tau=4,w=1)@10"]`).
 *
 * @param text One or more measure strings.
 * @returns The measure strings, trimmed, without empty entries.
 * @throws {Error} When parentheses are unbalanced.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitMeasureList } from "@lib/metrics/mod.ts";
 * assert.deepEqual(splitMeasureList("nDCG@10 alpha_nDCG(alpha=0.5)@20,Cov"), ["nDCG@10", "alpha_nDCG(alpha=0.5)@20", "Cov"]);
 * ```
 */
export function splitMeasureList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (depth < 0) break;
    if (depth === 0 && (ch === "," || /\s/.test(ch))) {
      if (current) out.push(current);
      current = "";
    } else if (depth > 0 && /\s/.test(ch)) {
      continue;
    } else {
      current += ch;
    }
  }
  if (depth !== 0) {
    throw new Error(`Cannot split measure list "${text}": unbalanced parentheses`);
  }
  if (current) out.push(current);
  return out;
}
