/**
 * Flags generations that cannot be a report: empty, only a number, or a handful
 * of tokens against a budget of hundreds (a model answering every prompt with a
 * digit). Such texts would flow into Cov(y) and Den(y) unnoticed.
 *
 * @module
 */

/** Why a generation is suspicious, or undefined when it looks like a report. */
export type GenerationFlag = "empty" | "number-only" | "near-empty";

/**
 * Classifies one generated text: `empty` (no visible character), `number-only`
 * (a number and nothing else, e.g. "4" or "0.85"), `near-empty` (at most 10 tokens,
 * or under 5% of a budget of more than 40 tokens).
 *
 * @param text The generated text.
 * @param tokens Its token count.
 * @param budget The token budget it was generated under, when there is one.
 * @returns The flag, or undefined for an ordinary report.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generationFlag } from "@lib/generate/mod.ts";
 * assert.equal(generationFlag("4", 1, 530), "number-only");
 * assert.equal(generationFlag("The bridge fell at dawn.", 7, 530), "near-empty");
 * ```
 */
export function generationFlag(
  text: string,
  tokens: number,
  budget?: number,
): GenerationFlag | undefined {
  const t = text.trim();
  if (t === "") return "empty";
  if (/^[-+]?(\d+([.,]\d+)?|[.,]\d+)%?\.?$/.test(t)) return "number-only";
  if (tokens <= 10 || (budget !== undefined && budget > 40 && tokens < budget * 0.05)) {
    return "near-empty";
  }
  return undefined;
}

/**
 * Counts flagged generations of one run, for summaries and table notes.
 *
 * @param items Texts with token counts and budgets.
 * @returns Counts per flag (only flags that occur).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countGenerationFlags } from "@lib/generate/mod.ts";
 * const counts = countGenerationFlags([{ text: "", tokens: 0 }, { text: "3", tokens: 1 }]);
 * assert.deepEqual(counts, { empty: 1, "number-only": 1 });
 * ```
 */
export function countGenerationFlags(
  items: readonly { text: string; tokens: number; budget?: number }[],
): Partial<Record<GenerationFlag, number>> {
  const out: Partial<Record<GenerationFlag, number>> = {};
  for (const i of items) {
    const f = generationFlag(i.text, i.tokens, i.budget);
    if (f) out[f] = (out[f] ?? 0) + 1;
  }
  return out;
}

/**
 * One phrase for flag counts, e.g. `2 empty, 1 only a number`; "" when none.
 *
 * @param counts Counts from {@linkcode countGenerationFlags}.
 * @returns The phrase.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeGenerationFlags } from "@lib/generate/mod.ts";
 * assert.equal(describeGenerationFlags({ empty: 2, "near-empty": 1 }), "2 empty, 1 near-empty");
 * ```
 */
export function describeGenerationFlags(counts: Partial<Record<GenerationFlag, number>>): string {
  const words: Record<GenerationFlag, string> = {
    empty: "empty",
    "number-only": "only a number",
    "near-empty": "near-empty",
  };
  return (Object.keys(words) as GenerationFlag[])
    .filter((f) => counts[f])
    .map((f) => `${counts[f]} ${words[f]}`)
    .join(", ");
}
