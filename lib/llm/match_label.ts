// Matches a label written by a model to one of the allowed labels, spelling differences aside.

/** One spelling for comparison: case, markdown, quotes, brackets, end punctuation and separators dropped. */
function spelling(s: string): string {
  return s
    .toLowerCase()
    .replace(/\*\*|__|[`"'“”‘’]/g, "")
    .trim()
    .replace(/^[[(<{*\s]+|[\])>}*\s.,;:!?]+$/g, "")
    .replace(/[\s_-]+/g, "_");
}

/**
 * The allowed label a model's spelling of it stands for, or `undefined`.
 * Case, spaces, hyphens and underscores, markdown emphasis, quotes, enclosing
 * brackets and end punctuation do not matter (`[Yes]`, `**yes**`, `yes.`,
 * `Answered.`, `follow up` for `follow-up`, `Partial Support` for
 * `partial_support`), and `no X` stands for an allowed `not X` (`No Support`
 * for `not_support`). Anything else, a longer phrase included, is no label.
 *
 * @param value The model's label.
 * @param allowed Allowed labels, spelled as they are returned.
 * @returns The allowed label, or `undefined`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(matchLabel("[Yes]", ["yes", "no", "neutral"]), "yes");
 * assert.equal(matchLabel("No Support", ["support", "partial_support", "not_support"]), "not_support");
 * assert.equal(matchLabel("yes, mostly", ["yes", "no"]), undefined);
 * ```
 */
export function matchLabel<L extends string>(
  value: unknown,
  allowed: readonly L[],
): L | undefined {
  if (typeof value !== "string") return undefined;
  const s = spelling(value);
  if (!s) return undefined;
  for (const a of allowed) {
    const t = spelling(a);
    if (s === t || (t.startsWith("not_") && s === `no_${t.slice(4)}`)) return a;
  }
  return undefined;
}
