/**
 * The CRUX pooled corpus: JSONL `{"id", "contents"}` (`text` accepted instead of
 * `contents`), about 565k passages for Multi-News + DUC, so it is streamed.
 *
 * @module
 */
import { decodeJsonl, type Fields, streamJsonl } from "./_json.ts";
import { countRepeats, Repeats, textHash } from "./_repeats.ts";

/** One corpus entry. */
export interface CorpusEntry {
  id: string;
  contents: string;
}

/** Options of the corpus readers. */
export interface CorpusOptions {
  /**
   * Kept for compatibility: repeated ids are always checked now. A line repeating
   * an earlier entry exactly is dropped and counted; the same id with other
   * contents is an error naming both lines. Memory holds every id and a hash of
   * its contents.
   */
  uniqueIds?: boolean;
  /** Receives the number of identical repeated entries dropped, after the last line. */
  onDuplicates?: (count: number) => void;
}

function decodeEntry(f: Fields): CorpusEntry | undefined {
  const id = f.string("id", { coerce: true });
  const key = f.first(["contents", "text"]) ?? "contents";
  const contents = f.string(key);
  return id === undefined || contents === undefined ? undefined : { id, contents };
}

/** The entry decoder: remembers each id, drops identical repeats, reports conflicting ones. */
function decoderFor(repeats: Repeats): (f: Fields) => CorpusEntry | undefined {
  return (f) => {
    const entry = decodeEntry(f);
    if (!entry) return undefined;
    const before = f.problems.total;
    if (
      repeats.keep(
        entry.id,
        textHash(entry.contents),
        f.line,
        f.problems,
        "id",
        JSON.stringify(entry.id),
      )
    ) {
      return entry;
    }
    if (f.problems.total > before) f.markBad();
    return undefined;
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
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseCorpus('{"id": "t:0#0", "text": "A passage."}\n', { file: "corpus.jsonl" }), [{ id: "t:0#0", contents: "A passage." }]);
 * ```
 */
export function parseCorpus(text: string, opts: CorpusOptions & { file: string }): CorpusEntry[] {
  return countRepeats(
    opts.onDuplicates,
    (repeats) => decodeJsonl(text, opts.file, decoderFor(repeats)),
  );
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
 * for await (const { id, contents } of streamCorpus("datasets/sample/corpus.jsonl")) console.log(id, contents.length);
 * ```
 */
export async function* streamCorpus(
  path: string,
  opts: CorpusOptions = {},
): AsyncGenerator<CorpusEntry> {
  const repeats = new Repeats();
  yield* streamJsonl(path, decoderFor(repeats));
  opts.onDuplicates?.(repeats.dropped);
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
