/**
 * Reading text files the way every reader does: strict UTF-8 (a bad byte is an
 * error naming its line), a byte-order mark dropped, file-system errors naming
 * the file and what to check.
 *
 * @module
 */
import { readText } from "./_lines.ts";
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
