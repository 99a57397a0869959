/**
 * Checking a file's bytes as UTF-8 text without decoding them into a string.
 *
 * @module
 */
import { asciiEnd, decodeUtf8 } from "./_utf8.ts";

/**
 * Checks that `bytes` are valid UTF-8 and says whether the text holds only
 * white space (as `String.prototype.trim` sees it; a byte-order mark does not
 * count). An all-ASCII file, the usual case for TREC runs and qrels, is
 * checked in one pass over its bytes and never decoded.
 *
 * @param bytes The file's bytes.
 * @param file The file's name, for errors.
 * @returns Whether the text is blank (empty or white space only).
 * @throws {InputError} On invalid UTF-8, naming the line and column.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blankText } from "@lib/formats/mod.ts";
 * assert.equal(blankText(new TextEncoder().encode(" \n\t\n"), "a.txt"), true);
 * assert.equal(blankText(new TextEncoder().encode("q1 0 d1 1\n"), "a.txt"), false);
 * ```
 */
export function blankText(bytes: Uint8Array, file: string): boolean {
  if (asciiEnd(bytes) < bytes.length) {
    let text = decodeUtf8(bytes, file);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return text.trim() === "";
  }
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c !== 32 && (c < 9 || c > 13)) return false;
  }
  return true;
}
