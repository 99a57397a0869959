/**
 * TREC qrels: `topic iteration docid grade`. Plain qrels put `0` in the iteration
 * column; diversity (subtopic) qrels put the subtopic id there (CRUX numbers
 * sub-questions from 1) with grade 0/1. CRUX `*_qrels_pr.txt` files use this layout
 * with grades 3 (required), 2 (neutral) and 1 (redundant).
 *
 * @module
 */
import type { Qrel } from "@lib/types/mod.ts";
import { checkToken, columns, integerColumn } from "./_columns.ts";
import { readLines, splitLines } from "./_lines.ts";
import { Problems } from "./_problems.ts";
import { Repeats } from "./_repeats.ts";
import { writeAtomic } from "./write_atomic.ts";

/** Records a whole-file problem when no line held a qrel and none was bad. */
function checkNotEmpty(problems: Problems, out: Qrel[]): void {
  if (out.length === 0 && problems.total === 0) {
    problems.add(0, undefined, 'the file is empty; expected "topic iteration docid grade" lines');
  }
}

function parseQrelLine(
  line: string,
  lineNo: number,
  problems: Problems,
  out: Qrel[],
  repeats: Repeats,
): void {
  const cols = columns(line);
  if (cols.length === 0) return;
  if (cols.length !== 4) {
    problems.add(
      lineNo,
      undefined,
      `expected 4 columns (topic iteration docid grade), found ${cols.length}`,
    );
    return;
  }
  const grade = integerColumn(cols[3], lineNo, "grade", problems);
  if (grade === undefined) return;
  const key = `${cols[0]}\0${cols[1]}\0${cols[2]}`;
  const what = `document "${cols[2]}" of topic "${cols[0]}" (iteration ${cols[1]})`;
  if (!repeats.keep(key, grade, lineNo, problems, "docid", what)) return;
  out.push({ topicId: cols[0], docId: cols[2], grade, subtopic: cols[1] });
}

/**
 * Parses qrels. `subtopic` is the iteration column as a string (`"0"` for plain
 * qrels). Empty lines are skipped.
 *
 * @param text The qrels text.
 * @param opts `file` names the input in error messages; `onDuplicates` receives the
 *   number of lines repeating an earlier (topic, iteration, docid) with the same grade,
 *   which are dropped.
 * @returns One `Qrel` per distinct non-empty line, in file order.
 * @throws {InputError} Listing lines with the wrong column count or a non-integer grade,
 *   a (topic, iteration, docid) graded again differently (naming both lines), or saying
 *   the file is empty (no non-blank line).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseQrels("q1 0 d1 2\n", { file: "x.qrels" }), [{ topicId: "q1", docId: "d1", grade: 2, subtopic: "0" }]);
 * ```
 */
export function parseQrels(
  text: string,
  opts: { file: string; onDuplicates?: (count: number) => void },
): Qrel[] {
  const problems = new Problems(opts.file);
  const out: Qrel[] = [];
  const lines = splitLines(text);
  const repeats = new Repeats();
  for (let i = 0; i < lines.length; i++) parseQrelLine(lines[i], i + 1, problems, out, repeats);
  opts.onDuplicates?.(repeats.dropped);
  checkNotEmpty(problems, out);
  problems.throwIfAny();
  return out;
}

/**
 * Reads a qrels file (plain, diversity or CRUX `*_qrels_pr.txt`), streaming it.
 *
 * @param path The qrels file.
 * @param opts `onDuplicates` as in {@linkcode parseQrels}.
 * @returns The judgments in file order.
 * @throws {InputError} As {@linkcode parseQrels}, naming `path` (an empty file included).
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @example
 * ```ts
 * const path = `${await Deno.makeTempDir()}/duc04_qrels_pr.txt`;
 * await Deno.writeTextFile(path, "q1 0 d1 2\n");
 * const qrels = await readQrels(path);
 * ```
 */
export async function readQrels(
  path: string,
  opts: { onDuplicates?: (count: number) => void } = {},
): Promise<Qrel[]> {
  const problems = new Problems(path);
  const out: Qrel[] = [];
  let lineNo = 0;
  const repeats = new Repeats();
  for await (const line of readLines(path)) parseQrelLine(line, ++lineNo, problems, out, repeats);
  opts.onDuplicates?.(repeats.dropped);
  checkNotEmpty(problems, out);
  problems.throwIfAny();
  return out;
}

/**
 * Formats qrels as `topic subtopic docid grade` lines in the given order
 * (`subtopic` defaults to `0`).
 *
 * @param qrels The judgments.
 * @returns The qrels text, ending with a newline (empty for none).
 * @throws {RangeError} When an id is empty or contains whitespace, or a grade is not an integer.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(formatQrels([{ topicId: "q1", docId: "d1", grade: 1, subtopic: "3" }]), "q1 3 d1 1\n");
 * ```
 */
export function formatQrels(qrels: readonly Qrel[]): string {
  const out: string[] = [];
  for (const q of qrels) {
    checkToken(q.topicId, "topicId");
    checkToken(q.docId, "docId");
    const subtopic = q.subtopic ?? "0";
    checkToken(subtopic, "subtopic");
    if (!Number.isInteger(q.grade)) {
      throw new RangeError(
        `Cannot write grade ${q.grade} of "${q.docId}": grades must be integers`,
      );
    }
    out.push(`${q.topicId} ${subtopic} ${q.docId} ${q.grade}\n`);
  }
  return out.join("");
}

/**
 * Writes qrels to a file, atomically.
 *
 * @param path Destination file (its folder must exist).
 * @param qrels The judgments, in the given order.
 * @returns Resolves when the file is in place.
 * @throws {RangeError} As {@linkcode formatQrels}.
 * @example
 * ```ts
 * import { writeQrels } from "@lib/formats/mod.ts";
 * import type { Qrel } from "@lib/types/mod.ts";
 * const qrels: Qrel[] = [{ topicId: "q1", docId: "d1", grade: 2 }];
 * const dir = await Deno.makeTempDir();
 * await writeQrels(`${dir}/dataset.qrels`, qrels); // file text: "q1 0 d1 2\n"
 * ```
 */
export async function writeQrels(path: string, qrels: readonly Qrel[]): Promise<void> {
  await writeAtomic(path, formatQrels(qrels));
}
