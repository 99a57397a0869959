// A model answer without its markdown dressing, for the parsers of short answers.

/**
 * A model answer without its markdown dressing, for reading short answers:
 * code fence lines, emphasis (`**`, `__`, `*`, `` ` ``), heading and quote
 * marks are removed and spaces within lines collapsed; line breaks stay.
 *
 * @param text Model output.
 * @returns The text as plain lines.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(plainAnswer("## Rating\n**4**"), "Rating\n4");
 * ```
 */
export function plainAnswer(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .filter((line) => !/^\s*(`{3,}|~{3,})/.test(line))
    .map((line) =>
      line
        .replace(/\*\*|__|`+/g, "")
        .replace(/(^|[\s(])\*(\S)/g, "$1$2")
        .replace(/(\S)\*(?=$|[\s).,:;!?])/g, "$1")
        .replace(/^\s*(?:#{1,6}|>|[-*+](?=\s))\s*/, "")
        .replace(/[ \t\u00a0]+/g, " ")
        .trim()
    )
    .join("\n");
}
