/**
 * TREC run files: `topic Q0 docid rank score tag`, whitespace separated.
 *
 * @module
 */
import type { RunRow } from "@lib/types/mod.ts";
import { checkToken, columns, integerColumn, numberColumn } from "./_columns.ts";
import { splitLines } from "./_lines.ts";
import { LineChunks } from "./line_chunks.ts";
import { Problems } from "./_problems.ts";
import { writeAtomic } from "./write_atomic.ts";

/** Options of {@linkcode parseRun} and {@linkcode readRun}. */
export interface RunOptions {
  /** Name used in error messages (the path for `readRun`). */
  file: string;
  /** Run name for every row; defaults to each line's tag column. */
  run?: string;
}

/** Records a whole-file problem when no line held a row and none was bad. */
function checkNotEmpty(problems: Problems, rows: RunRow[]): void {
  if (rows.length === 0 && problems.total === 0) {
    problems.add(0, undefined, 'the file is empty; expected "topic Q0 docid rank score tag" lines');
  }
}

/** Parses one run line into `rows`, or records its problems. */
function parseRunLine(
  line: string,
  lineNo: number,
  problems: Problems,
  run: string | undefined,
  rows: RunRow[],
): void {
  const cols = columns(line);
  if (cols.length === 0) return;
  if (cols.length !== 6) {
    problems.add(
      lineNo,
      undefined,
      `expected 6 columns (topic Q0 docid rank score tag), found ${cols.length}`,
    );
    return;
  }
  const rank = integerColumn(cols[3], lineNo, "rank", problems);
  const score = numberColumn(cols[4], lineNo, "score", problems);
  if (rank !== undefined && rank < 0) {
    problems.add(
      lineNo,
      "rank",
      `${rank} is negative; ranks count from 0 or 1 (--order rank ranks by this column, so a ` +
        "negative rank would put the document first)",
    );
    return;
  }
  if (rank === undefined || score === undefined) return;
  rows.push({ run: run ?? cols[5], topicId: cols[0], docId: cols[2], rank, score });
}

/**
 * Parses a TREC run. Empty lines are skipped and the second (`Q0`) column is not
 * checked. Ranks are integers from 0 (runs number from 0 or from 1); a negative
 * rank is an error. Rows keep file order; ordering for evaluation is the evaluator's job.
 *
 * @param text The run's text.
 * @param opts `file` for error messages; `run` overrides the tag column.
 * @returns One `RunRow` per non-empty line.
 * @throws {InputError} Listing every line with the wrong column count, a
 *   non-numeric or negative rank or a non-numeric score (up to 50), or saying the file is empty (no
 *   non-blank line).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseRun("q1 Q0 d1 1 2.5 bm25\n", { file: "x.run" }), [{ run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 }]);
 * ```
 */
export function parseRun(text: string, opts: RunOptions): RunRow[] {
  const problems = new Problems(opts.file);
  const rows: RunRow[] = [];
  const lines = splitLines(text);
  for (let i = 0; i < lines.length; i++) parseRunLine(lines[i], i + 1, problems, opts.run, rows);
  checkNotEmpty(problems, rows);
  problems.throwIfAny();
  return rows;
}

/**
 * Reads a TREC run file, streaming it line by line.
 *
 * @param path The run file.
 * @param opts `run` overrides the tag column.
 * @returns The rows in file order.
 * @throws {InputError} As {@linkcode parseRun}, naming `path` (an empty file included).
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @example
 * ```ts
 * const path = `${await Deno.makeTempDir()}/bm25.run`;
 * await Deno.writeTextFile(path, "q1 Q0 d1 1 2.5 bm25\n");
 * const rows = await readRun(path);
 * ```
 */
export async function readRun(path: string, opts: { run?: string } = {}): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  for await (const batch of streamRun(path, opts)) for (const r of batch) rows.push(r);
  return rows;
}

/**
 * Streams a TREC run file in batches of rows, reading it in chunks of whole lines:
 * memory holds one chunk and its rows, whatever the file's size. Every line is
 * checked as {@linkcode parseRun} checks it; the problems are thrown together
 * after the last batch (a caller storing the rows does so in a transaction).
 *
 * @param path The run file.
 * @param opts `run` overrides the tag column; `chunkBytes` is the bytes read at a time.
 * @returns Batches of rows in file order.
 * @throws {InputError} As {@linkcode parseRun}, naming `path` and the line.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @example
 * ```ts
 * let n = 0;
 * const path = `${await Deno.makeTempDir()}/bm25.run`;
 * await Deno.writeTextFile(path, "q1 Q0 d1 1 2.5 bm25\n");
 * for await (const rows of streamRun(path)) n += rows.length;
 * ```
 */
export async function* streamRun(
  path: string,
  opts: { run?: string; chunkBytes?: number } = {},
): AsyncGenerator<RunRow[]> {
  const problems = new Problems(path);
  const decoder = new TextDecoder();
  let lineNo = 0;
  let rowCount = 0;
  for await (const chunk of new LineChunks(path, { chunkBytes: opts.chunkBytes ?? 1 << 20 })) {
    const rows: RunRow[] = [];
    const lines = splitLines(decoder.decode(chunk.bytes));
    for (const line of lines) parseRunLine(line, ++lineNo, problems, opts.run, rows);
    rowCount += rows.length;
    if (rows.length) yield rows;
  }
  if (rowCount === 0 && problems.total === 0) checkNotEmpty(problems, []);
  problems.throwIfAny();
}

/**
 * Formats rows as a TREC run (`topic Q0 docid rank score run`, one per line), in
 * the given order. Scores keep full precision.
 *
 * @param rows The rows to write; ids must not contain whitespace.
 * @returns The run text, ending with a newline (empty for no rows).
 * @throws {RangeError} When an id or run name contains whitespace or is empty.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(formatRun([{ run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 }]), "q1 Q0 d1 1 2.5 bm25\n");
 * ```
 */
export function formatRun(rows: readonly RunRow[]): string {
  const out: string[] = [];
  for (const r of rows) {
    checkToken(r.topicId, "topicId");
    checkToken(r.docId, "docId");
    checkToken(r.run, "run");
    out.push(`${r.topicId} Q0 ${r.docId} ${r.rank} ${r.score} ${r.run}\n`);
  }
  return out.join("");
}

/**
 * Writes rows as a TREC run file, atomically.
 *
 * @param path Destination file (its folder must exist).
 * @param rows The rows, written in the given order.
 * @returns Resolves when the file is in place.
 * @throws {RangeError} As {@linkcode formatRun}.
 * @example
 * ```ts
 * import { writeRun } from "@lib/formats/mod.ts";
 * import type { RunRow } from "@lib/types/mod.ts";
 * const rows: RunRow[] = [{ run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 }];
 * const dir = await Deno.makeTempDir();
 * await writeRun(`${dir}/bm25.run`, rows); // file text: "q1 Q0 d1 1 2.5 bm25\n"
 * ```
 */
export async function writeRun(path: string, rows: readonly RunRow[]): Promise<void> {
  await writeAtomic(path, formatRun(rows));
}
