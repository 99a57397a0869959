/**
 * The CRUX pooled corpus: JSONL `{"id", "contents"}` (`text` accepted instead of
 * `contents`), about 565k passages for Multi-News + DUC, so it is streamed.
 *
 * @module
 */
import { decodeJsonl, type Fields, streamJsonl } from "./_json.ts";

/** One corpus entry. */
export interface CorpusEntry {
  id: string;
  contents: string;
}

function decodeEntry(f: Fields): CorpusEntry | undefined {
  const id = f.string("id", { coerce: true });
  const key = f.first(["contents", "text"]) ?? "contents";
  const contents = f.string(key);
  return id === undefined || contents === undefined ? undefined : { id, contents };
}

/**
 * Parses corpus JSONL text.
 *
 * @param text The JSONL text.
 * @param opts `file` names the input in error messages.
 * @returns The entries in file order.
 * @throws {InputError} Listing lines that are not JSON objects with `id` and `contents`/`text`.
 * @example
 * ```ts
 * parseCorpus('{"id": "t:0#0", "text": "A passage."}\n', { file: "corpus.jsonl" });
 * // [{ id: "t:0#0", contents: "A passage." }]
 * ```
 */
export function parseCorpus(text: string, opts: { file: string }): CorpusEntry[] {
  return decodeJsonl(text, opts.file, decodeEntry);
}

/**
 * Streams a corpus file entry by entry (constant memory). Problems are thrown
 * together as one `InputError` after the last line.
 *
 * @param path The corpus JSONL file.
 * @returns An async iterator over the entries.
 * @throws {InputError} After the last entry, when any line was bad.
 * @example
 * ```ts
 * for await (const { id, contents } of streamCorpus("crux/corpus.jsonl")) console.log(id, contents.length);
 * ```
 */
export function streamCorpus(path: string): AsyncGenerator<CorpusEntry> {
  return streamJsonl(path, decodeEntry);
}

/**
 * Reads a whole corpus file (streamed while reading).
 *
 * @param path The corpus JSONL file.
 * @returns All entries in file order.
 * @throws {InputError} Listing every bad line (up to 50).
 * @example
 * ```ts
 * const corpus = await readCorpus("datasets/sample/corpus.jsonl");
 * ```
 */
export async function readCorpus(path: string): Promise<CorpusEntry[]> {
  const out: CorpusEntry[] = [];
  for await (const entry of streamCorpus(path)) out.push(entry);
  return out;
}
