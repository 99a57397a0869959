/**
 * Reading text files the way every reader does: strict UTF-8 (a bad byte is an
 * error naming its line), a byte-order mark dropped, file-system errors naming
 * the file and what to check.
 *
 * @module
 */
import { MAX_TEXT_BYTES, readText, refuseOversizedText as checkSize } from "./_lines.ts";
import { decodeUtf8 } from "./_utf8.ts";

/**
 * Reads a whole text file as strict UTF-8, without a leading byte-order mark.
 *
 * @param path The file.
 * @returns Its text.
 * @throws {InputError} On invalid UTF-8, naming the line and column.
 * @throws {Deno.errors.NotFound} When the file is missing (the message names it).
 * @example
 * ```ts
 * import { readTextFile } from "@lib/formats/mod.ts";
 * const text = await readTextFile("datasets/sample/topics.jsonl");
 * ```
 */
export function readTextFile(path: string): Promise<string> {
  return readText(path);
}

/**
 * Refuses a file too big to be read whole, before it is read: over `max` bytes
 * (default 256 MiB, the limit of every reader that reads a whole file).
 *
 * @param path The file, named in the error.
 * @param size Its size in bytes.
 * @param max The limit (default 256 MiB).
 * @throws {InputError} Naming the file and its size.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkTextSize } from "@lib/formats/mod.ts";
 * checkTextSize("small.json", 1000); // passes
 * assert.throws(() => checkTextSize("big.json", 2 ** 31), /big\.json: the file is 2147483648 bytes/);
 * ```
 */
export function checkTextSize(path: string, size: number, max = MAX_TEXT_BYTES): void {
  checkSize(path, size, max);
}

/**
 * Decodes bytes read from `file` as strict UTF-8, without a leading byte-order mark.
 *
 * @param bytes The file's bytes.
 * @param file The file's name, for errors.
 * @returns The text.
 * @throws {InputError} On invalid UTF-8, naming the line and column.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeText } from "@lib/formats/mod.ts";
 * assert.equal(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]), "a.txt"), "a");
 * ```
 */
export function decodeText(bytes: Uint8Array, file: string): string {
  const text = decodeUtf8(bytes, file);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
