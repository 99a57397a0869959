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
import { Repeats, textHash } from "./_repeats.ts";

/** One Multi-News example. */
export interface MultiNewsExample {
  /**
   * Position among the file's examples (0-based, exact repeats not counted),
   * used for CRUX ids `multi_news-{split}-{index}`.
   */
  index: number;
  /** Source articles, in order. */
  documents: string[];
  summary: string;
}

/** Options of the Multi-News readers. */
export interface MultiNewsOptions {
  /** Read at most this many examples (default: all). */
  limit?: number;
  /**
   * Receives the number of examples that repeated an earlier one exactly (same
   * articles, same summary), which are dropped so that they take no position;
   * the same articles with another summary are an error naming both lines.
   */
  onDuplicates?: (count: number) => void;
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
 * The examples of one file, numbered in order, each exact repeat of an earlier
 * example (same articles and summary after cleaning) dropped and counted, and
 * the same articles with another summary recorded as a problem naming both lines.
 */
class Examples {
  readonly list: MultiNewsExample[] = [];
  readonly #repeats = new Repeats();
  constructor(readonly problems: Problems) {}

  /**
   * Adds the example read at `line` unless it repeats one (a conflict goes to
   * `problems`); returns it when kept.
   */
  add(
    line: number,
    document: string | string[],
    summary: string,
    problems = this.problems,
  ): MultiNewsExample | undefined {
    const ex = exampleOf(this.list.length, document, summary);
    const key = String(textHash(JSON.stringify(ex.documents)));
    const what = "an example with the same articles";
    if (!this.#repeats.keep(key, textHash(ex.summary), line, problems, undefined, what)) {
      return undefined;
    }
    this.list.push(ex);
    return ex;
  }

  /** Throws the problems recorded here, else reports the repeats dropped. */
  finish(opts: MultiNewsOptions): MultiNewsExample[] {
    this.problems.throwIfAny();
    opts.onDuplicates?.(this.#repeats.dropped);
    return this.list;
  }
}

/**
 * Reads Multi-News JSONL (`document` as a joined string or `documents` as a list, plus `summary`).
 *
 * @param path The JSONL file.
 * @param opts `limit` (default all); `onDuplicates` receives the number of exact
 *   repeats dropped.
 * @returns The examples, indexed by position among non-empty lines, exact repeats left out.
 * @throws {InputError} Listing lines without `document`/`documents` or `summary`,
 *   and the same articles given again with another summary (naming both lines).
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
  const examples = new Examples(new Problems(path));
  const decode = (f: Fields) => {
    const document = f.has("documents") ? f.strings("documents") : f.string("document");
    const summary = f.string("summary");
    if (document === undefined || summary === undefined) return undefined;
    const before = f.problems.total;
    const example = examples.add(f.line, document, summary, f.problems);
    if (f.problems.total > before) f.markBad();
    return example;
  };
  if (limit > 0) {
    for await (const _ of streamJsonl(path, decode)) {
      if (examples.list.length >= limit) break;
    }
  }
  return examples.finish(opts);
}

/**
 * Reads Multi-News `.src`/`.tgt` pairs: line i of `src` holds the articles and line i
 * of `tgt` the summary of example i.
 *
 * @param src The sources file.
 * @param tgt The summaries file.
 * @param opts `limit` (default all); `onDuplicates` receives the number of exact
 *   repeats dropped.
 * @returns The examples in line order, exact repeats left out.
 * @throws {InputError} When the files have different numbers of lines (checked unless
 *   the limit stops reading first), or the same articles come again with another summary.
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
  const examples = new Examples(new Problems(src));
  let n = 0;
  try {
    while (examples.list.length < limit) {
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
      n++;
      examples.add(n, s.value, t.value);
    }
  } finally {
    await sources.return(undefined);
    await targets.return(undefined);
  }
  return examples.finish(opts);
}

/**
 * The Multi-News examples of the rows of a table with `document` and `summary`
 * columns (a Parquet file), in row order, exact repeats dropped as in the other
 * readers (a row's "line" is its 1-based row number).
 *
 * @param path The file, named in errors.
 * @param rows The rows' `document` and `summary` values (null reads as empty).
 * @param opts `limit` (default all); `onDuplicates`.
 * @returns The examples.
 * @throws {InputError} When the same articles come again with another summary.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * let dropped = 0;
 * const rows = [["A. ||||| B.", "S."], ["A. ||||| B.", "S."], ["C.", "T."]];
 * const examples = multiNewsRowExamples("mn.parquet", rows, { onDuplicates: (n) => dropped = n });
 * assert.deepEqual(examples.map((e) => [e.index, e.summary]), [[0, "S."], [1, "T."]]);
 * assert.equal(dropped, 1);
 * ```
 */
export function multiNewsRowExamples(
  path: string,
  rows: Iterable<readonly unknown[]>,
  opts: MultiNewsOptions = {},
): MultiNewsExample[] {
  const limit = opts.limit ?? Infinity;
  const examples = new Examples(new Problems(path));
  let row = 0;
  for (const [document, summary] of rows) {
    if (examples.list.length >= limit) break;
    examples.add(++row, String(document ?? ""), String(summary ?? ""));
  }
  return examples.finish(opts);
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
