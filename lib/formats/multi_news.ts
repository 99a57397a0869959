/**
 * Multi-News (Fabbri et al. 2019) readers: JSONL `{"document", "summary"}`, rows of a
 * Parquet table with the same columns (read by the store), and `.src`/`.tgt` line pairs. Source
 * articles are joined by `|||||` (or `story_separator_special_tag`); `NEWLINE_CHAR`
 * tokens of the original release become newlines.
 *
 * @module
 */
import { type Fields, streamJsonl } from "./_json.ts";
import { readLines } from "./_lines.ts";
import { Problems } from "./_problems.ts";

/** One Multi-News example. */
export interface MultiNewsExample {
  /** Position in the file (0-based), used for CRUX ids `multi_news-{split}-{index}`. */
  index: number;
  /** Source articles, in order. */
  documents: string[];
  summary: string;
}

/** Options of the Multi-News readers. */
export interface MultiNewsOptions {
  /** Read at most this many examples (default: all). */
  limit?: number;
}

/**
 * Splits a Multi-News `document` field into its articles, dropping empty ones.
 *
 * @param text The joined articles.
 * @returns The articles, trimmed.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(splitMultiNewsDocument("First. ||||| Second. NEWLINE_CHAR More."), ["First.", "Second.\nMore."]);
 * ```
 */
export function splitMultiNewsDocument(text: string): string[] {
  return text
    .split(/\|\|\|\|\||story_separator_special_tag/)
    .map(cleanText)
    .filter((d) => d !== "");
}

function cleanText(text: string): string {
  return text.replace(/\s*NEWLINE_CHAR\s*/g, "\n").replace(/[ \t]+/g, " ").trim();
}

function exampleOf(index: number, document: string | string[], summary: string): MultiNewsExample {
  const documents = Array.isArray(document)
    ? document.map(cleanText).filter((d) => d !== "")
    : splitMultiNewsDocument(document);
  return { index, documents, summary: cleanText(summary) };
}

/**
 * Reads Multi-News JSONL (`document` as a joined string or `documents` as a list, plus `summary`).
 *
 * @param path The JSONL file.
 * @param opts `limit` (default all).
 * @returns The examples, indexed by position among non-empty lines.
 * @throws {InputError} Listing lines without `document`/`documents` or `summary`.
 * @example
 * ```ts ignore
 * // Not run as a test: it reads Multi-News, which the user brings.
 * const examples = await readMultiNewsJsonl("multi_news/test.jsonl", { limit: 100 });
 * ```
 */
export async function readMultiNewsJsonl(
  path: string,
  opts: MultiNewsOptions = {},
): Promise<MultiNewsExample[]> {
  const limit = opts.limit ?? Infinity;
  const out: MultiNewsExample[] = [];
  const decode = (f: Fields) => {
    const document = f.has("documents") ? f.strings("documents") : f.string("document");
    const summary = f.string("summary");
    return document === undefined || summary === undefined
      ? undefined
      : exampleOf(out.length, document, summary);
  };
  for await (const example of streamJsonl(path, decode)) {
    if (out.length >= limit) break;
    out.push(example);
  }
  return out;
}

/**
 * Reads Multi-News `.src`/`.tgt` pairs: line i of `src` holds the articles and line i
 * of `tgt` the summary of example i.
 *
 * @param src The sources file.
 * @param tgt The summaries file.
 * @param opts `limit` (default all).
 * @returns The examples in line order.
 * @throws {InputError} When the files have different numbers of lines (checked unless the limit stops reading first).
 * @example
 * ```ts ignore
 * // Not run as a test: it reads Multi-News, which the user brings.
 * const examples = await readMultiNewsPairs("test.src.txt", "test.tgt.txt", { limit: 10 });
 * ```
 */
export async function readMultiNewsPairs(
  src: string,
  tgt: string,
  opts: MultiNewsOptions = {},
): Promise<MultiNewsExample[]> {
  const limit = opts.limit ?? Infinity;
  const sources = readLines(src);
  const targets = readLines(tgt);
  const out: MultiNewsExample[] = [];
  let n = 0;
  try {
    while (out.length < limit) {
      const [s, t] = await Promise.all([sources.next(), targets.next()]);
      if (s.done || t.done) {
        if (s.done !== t.done) {
          let rest = 1;
          for await (const _ of s.done ? targets : sources) rest++;
          const problems = new Problems(s.done ? tgt : src);
          problems.add(
            n + 1,
            undefined,
            `"${src}" and "${tgt}" must have one line per example, but this file has ${
              n + rest
            } lines and the other ${n}; check they belong together`,
          );
          problems.throwIfAny();
        }
        break;
      }
      out.push(exampleOf(n++, s.value, t.value));
    }
  } finally {
    await sources.return(undefined);
    await targets.return(undefined);
  }
  return out;
}

/**
 * The Multi-News example of a row of a table with `document` and `summary`
 * columns (a Parquet file): articles split and cleaned as in the other readers.
 *
 * @param index The row's position (0-based).
 * @param document The joined articles (null reads as empty).
 * @param summary The summary (null reads as empty).
 * @returns The example.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(multiNewsRowExample(0, "A. ||||| B.", "S."), { index: 0, documents: ["A.", "B."], summary: "S." });
 * ```
 */
export function multiNewsRowExample(
  index: number,
  document: unknown,
  summary: unknown,
): MultiNewsExample {
  return exampleOf(index, String(document ?? ""), String(summary ?? ""));
}

/**
 * Checks that a table of Multi-News rows (a Parquet file) has the `document` and
 * `summary` columns.
 *
 * @param path The file, named in the error.
 * @param columns Its column names.
 * @throws {InputError} Naming the missing columns and the ones found.
 * @example
 * ```ts
 * checkMultiNewsColumns("mn.parquet", ["document", "summary"]); // passes
 * ```
 */
export function checkMultiNewsColumns(path: string, columns: readonly string[]): void {
  const missing = ["document", "summary"].filter((c) => !columns.includes(c));
  if (missing.length > 0) {
    const problems = new Problems(path);
    problems.add(0, missing.join(", "), `missing column; found ${columns.join(", ")}`);
    problems.throwIfAny();
  }
}
