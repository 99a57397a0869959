/**
 * Byte order of strings: the order of their UTF-8 encodings, as C `strcmp`
 * (trec_eval) and DuckDB compare them.
 *
 * @module
 */

/**
 * Compares two strings as UTF-8 byte strings (C `strcmp` order), which is
 * trec_eval's order for document ids. JavaScript's `<` compares UTF-16 code
 * units, which disagrees when a character above U+FFFF (a surrogate pair) meets
 * one in U+E000..U+FFFF; this comparison does not, and needs no encoding.
 *
 * @param a First string.
 * @param b Second string.
 * @returns A negative number when `a` sorts first, positive when `b` does, 0 when equal.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareBytes } from "@lib/formats/mod.ts";
 * assert.deepEqual(["b", "\u{1F600}", "\uFF71", "a"].sort(compareBytes), ["a", "b", "\uFF71", "\u{1F600}"]);
 * assert.ok("\u{1F600}" < "\uFF71"); // UTF-16 order puts the emoji first
 * ```
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys && (x >= 0xe000 || y >= 0xe000)) return xs ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}
