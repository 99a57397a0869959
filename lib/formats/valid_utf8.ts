/**
 * Checking bytes as UTF-8 without decoding them, for readers that scan bytes.
 *
 * @module
 */
import { firstInvalidUtf8 } from "./_utf8.ts";

/**
 * Whether `bytes[from..to)` is valid UTF-8: no stray or missing continuation
 * byte, overlong form, surrogate or code point past U+10FFFF, and no character
 * cut by `to`. ASCII is checked sixteen bytes at a time.
 *
 * @param bytes The bytes.
 * @param from First byte checked. Default 0.
 * @param to End of the bytes checked (exclusive). Default `bytes.length`.
 * @returns Whether the range is valid UTF-8.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validUtf8 } from "@lib/formats/mod.ts";
 * const bytes = new TextEncoder().encode("d1 é");
 * assert.equal(validUtf8(bytes), true);
 * assert.equal(validUtf8(bytes, 0, bytes.length - 1), false); // é cut in two
 * assert.equal(validUtf8(new Uint8Array([0x61, 0xff])), false);
 * ```
 */
export function validUtf8(bytes: Uint8Array, from = 0, to: number = bytes.length): boolean {
  return firstInvalidUtf8(bytes, from, to) < 0;
}
