/**
 * Generic JSONL reading and writing (one JSON object per line).
 *
 * @module
 */
import { decodeJsonl, decodeJsonlFile } from "./_json.ts";
import { writeAtomic } from "./write_atomic.ts";

/**
 * Parses JSONL text into objects; empty lines are skipped.
 *
 * @param text The JSONL text.
 * @param opts `file` names the input in error messages.
 * @returns The objects in file order.
 * @throws {InputError} Listing lines that are not JSON objects.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseJsonl('{"a": 1}\n\n{"a": 2}\n', { file: "x.jsonl" }), [{ a: 1 }, { a: 2 }]);
 * ```
 */
export function parseJsonl(text: string, opts: { file: string }): Record<string, unknown>[] {
  return decodeJsonl(text, opts.file, (f) => f.obj);
}

/**
 * Reads a JSONL file into objects (streamed).
 *
 * @param path The file.
 * @returns The objects in file order.
 * @throws {InputError} As {@linkcode parseJsonl}.
 * @example
 * ```ts
 * const path = `${await Deno.makeTempDir()}/metrics.jsonl`;
 * await Deno.writeTextFile(path, '{"a": 1}\n{"a": 2}\n');
 * const rows = await readJsonl(path);
 * ```
 */
export function readJsonl(path: string): Promise<Record<string, unknown>[]> {
  return decodeJsonlFile(path, (f) => f.obj);
}

/**
 * Formats records as JSONL, one `JSON.stringify` per line.
 *
 * @param records The records.
 * @returns The text, ending with a newline (empty for no records).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(formatJsonl([{ a: 1 }, { a: 2 }]), '{"a":1}\n{"a":2}\n');
 * ```
 */
export function formatJsonl(records: Iterable<unknown>): string {
  let out = "";
  for (const r of records) out += JSON.stringify(r) + "\n";
  return out;
}

/**
 * Writes records to a JSONL file atomically, streaming large inputs.
 *
 * @param path Destination (its folder must exist).
 * @param records The records, sync or async.
 * @returns Resolves when the file is in place.
 * @example
 * ```ts
 * import { writeJsonl } from "@lib/formats/mod.ts";
 * const topics = [{ topicId: "t1", request: "Report on ..." }];
 * const dir = await Deno.makeTempDir();
 * await writeJsonl(`${dir}/topics.jsonl`, topics);
 * // file text: '{"topicId":"t1","request":"Report on ..."}\n'
 * ```
 */
export async function writeJsonl(
  path: string,
  records: Iterable<unknown> | AsyncIterable<unknown>,
): Promise<void> {
  async function* lines() {
    for await (const r of records) yield JSON.stringify(r) + "\n";
  }
  await writeAtomic(path, lines());
}
