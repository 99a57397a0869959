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

/** Options of the corpus readers. */
export interface CorpusOptions {
  /**
   * Report an id seen on an earlier line as a problem (`id: "x" is already on
   * line 3`), e.g. before building an index. Memory then holds every id.
   * Default false: repeated ids are passed on.
   */
  uniqueIds?: boolean;
}

function decodeEntry(f: Fields): CorpusEntry | undefined {
  const id = f.string("id", { coerce: true });
  const key = f.first(["contents", "text"]) ?? "contents";
  const contents = f.string(key);
  return id === undefined || contents === undefined ? undefined : { id, contents };
}

/** The entry decoder for `opts`: with `uniqueIds`, one that remembers the line of each id. */
function decoderFor(opts: CorpusOptions): (f: Fields) => CorpusEntry | undefined {
  if (!opts.uniqueIds) return decodeEntry;
  const lines = new Map<string, number>();
  return (f) => {
    const entry = decodeEntry(f);
    if (!entry) return undefined;
    const earlier = lines.get(entry.id);
    if (earlier !== undefined) {
      return f.fail(
        "id",
        `${JSON.stringify(entry.id)} is already on line ${earlier}; ids must be unique`,
      );
    }
    lines.set(entry.id, f.line);
    return entry;
  };
}

/**
 * Parses corpus JSONL text.
 *
 * @param text The JSONL text.
 * @param opts `file` names the input in error messages; `uniqueIds` (default false)
 *   reports repeated ids.
 * @returns The entries in file order.
 * @throws {InputError} Listing lines that are not JSON objects with `id` and
 *   `contents`/`text` (and, with `uniqueIds`, lines repeating an earlier id).
 * @example
 * ```ts
 * parseCorpus('{"id": "t:0#0", "text": "A passage."}\n', { file: "corpus.jsonl" });
 * // [{ id: "t:0#0", contents: "A passage." }]
 * ```
 */
export function parseCorpus(text: string, opts: CorpusOptions & { file: string }): CorpusEntry[] {
  return decodeJsonl(text, opts.file, decoderFor(opts));
}

/**
 * Streams a corpus file entry by entry (constant memory). Problems are thrown
 * together as one `InputError` after the last line.
 *
 * @param path The corpus JSONL file.
 * @param opts `uniqueIds` (default false) reports repeated ids (see {@linkcode CorpusOptions}).
 * @returns An async iterator over the entries.
 * @throws {InputError} After the last entry, when any line was bad.
 * @example
 * ```ts
 * for await (const { id, contents } of streamCorpus("crux/corpus.jsonl")) console.log(id, contents.length);
 * ```
 */
export function streamCorpus(
  path: string,
  opts: CorpusOptions = {},
): AsyncGenerator<CorpusEntry> {
  return streamJsonl(path, decoderFor(opts));
}

/**
 * Reads a whole corpus file (streamed while reading).
 *
 * @param path The corpus JSONL file.
 * @param opts `uniqueIds` (default false) reports repeated ids (see {@linkcode CorpusOptions}).
 * @returns All entries in file order.
 * @throws {InputError} Listing every bad line (up to 50).
 * @example
 * ```ts
 * const corpus = await readCorpus("datasets/sample/corpus.jsonl", { uniqueIds: true });
 * ```
 */
export async function readCorpus(path: string, opts: CorpusOptions = {}): Promise<CorpusEntry[]> {
  const out: CorpusEntry[] = [];
  for await (const entry of streamCorpus(path, opts)) out.push(entry);
  return out;
}
