/**
 * Per-topic graded judgments from qrels records or a qrels table, refusing a
 * document judged twice for one topic (trec_eval reads one grade per document).
 */
import type { Qrel } from "@lib/types/mod.ts";
import { InputError, MAX_PROBLEMS, type Problem } from "@lib/formats/input_error.ts";
import { QrelsTopic } from "./_qrels_topic.ts";
import { SpanIndex } from "./_span_hash.ts";
import type { QrelsTable } from "./qrels_table.ts";

const HINT = "subtopic (diversity) qrels must be given as diversity qrels " +
  "(`diversityQrels`, --div-qrels)";

/**
 * Builds every topic's judgments.
 *
 * @param qrels Records or a scanned table.
 * @param file The qrels file's name, for messages about a table (default `qrels`).
 * @param counts Receives in `repeats` the identical repeats (same topic, document and
 *   grade), which are dropped.
 * @throws {InputError} When a table lists a document twice for a topic with other grades: one
 *   problem per repeat, `file:line: docid: document "a" is listed twice for
 *   topic "q1" (first on line 2)`.
 * @throws {Error} When records list a document twice for a topic (no lines to name).
 */
export function qrelsTopics(
  qrels: readonly Qrel[] | QrelsTable,
  file = "qrels",
  counts: { repeats: number } = { repeats: 0 },
): Map<string, QrelsTopic> {
  if ("kind" in qrels && qrels.kind === "qrels-table") return tableTopics(qrels, file, counts);
  const groups = new Map<string, { docs: string[]; grades: number[] }>();
  let last: { docs: string[]; grades: number[] } | undefined;
  let lastTopic = "";
  for (const q of qrels as readonly Qrel[]) {
    if (!last || q.topicId !== lastTopic) {
      lastTopic = q.topicId;
      last = groups.get(q.topicId);
      if (!last) groups.set(q.topicId, last = { docs: [], grades: [] });
    }
    last.docs.push(q.docId);
    last.grades.push(q.grade);
  }
  const out = new Map<string, QrelsTopic>();
  const repeats: string[] = [];
  for (const [id, g] of groups) {
    const index = SpanIndex.ofStrings(g.docs);
    const dropped = new Set<number>();
    for (const [i, k] of index.duplicates) {
      if (g.grades[i] === g.grades[k]) {
        dropped.add(i); // the same judgment again: dropped and counted
        continue;
      }
      repeats.push(`document "${g.docs[i]}" is listed twice for topic "${id}"`);
    }
    counts.repeats += dropped.size;
    out.set(
      id,
      dropped.size
        ? without(index, g.grades, dropped)
        : new QrelsTopic(index, Float64Array.from(g.grades)),
    );
  }
  if (repeats.length) {
    const more = repeats.length > 1 ? ` (${repeats.length - 1} more documents are repeated)` : "";
    throw new Error(`Cannot use qrels: ${repeats[0]}; ${HINT}${more}`);
  }
  return out;
}

/** A topic's judgments without the rows `dropped` (identical repeats of earlier rows). */
function without(
  index: SpanIndex,
  grades: ArrayLike<number>,
  dropped: ReadonlySet<number>,
): QrelsTopic {
  const docs: string[] = [];
  const kept: number[] = [];
  for (let i = 0; i < grades.length; i++) {
    if (dropped.has(i)) continue;
    docs.push(index.key(i));
    kept.push(grades[i]);
  }
  return QrelsTopic.of(docs, kept);
}

/** A repeated judgment of a table: the byte offsets of both document ids. */
interface Repeat {
  topicId: string;
  docId: string;
  at: number;
  first: number;
}

function tableTopics(
  table: QrelsTable,
  file: string,
  counts: { repeats: number },
): Map<string, QrelsTopic> {
  const out = new Map<string, QrelsTopic>();
  const repeats: Repeat[] = [];
  // Each topic's lookup table is built when the topic is first searched (most topics
  // are not: a ranking looks its judged ids up in its own table, see `ColumnRanker`).
  for (const [id, ranges] of table.topics) {
    let start = table.start;
    let from = 0;
    let grade = table.grade;
    let index: SpanIndex;
    if (ranges.length === 2) { // the usual case: one block of the file, viewed in place
      from = ranges[0];
      const opts = { hashes: table.hash, from, to: ranges[1], lazy: true };
      index = new SpanIndex(table.bytes, start, table.end, opts);
      grade = grade.subarray(from, ranges[1]);
    } else { // a topic in several blocks of the file
      const [s, e, hashes, g] = gather(table, ranges);
      index = new SpanIndex(table.bytes, start = s, e, { hashes, lazy: true });
      grade = g;
    }
    if (index.duplicates.length === 0) { // no repeats: nothing more to allocate
      out.set(id, new QrelsTopic(index, grade));
      continue;
    }
    const dropped = new Set<number>();
    for (const [i, k] of index.duplicates) {
      if (grade[i] === grade[k]) {
        dropped.add(i); // the same judgment again: dropped and counted
        continue;
      }
      repeats.push({
        topicId: id,
        docId: index.key(i),
        at: start[from + i],
        first: start[from + k],
      });
    }
    counts.repeats += dropped.size;
    out.set(id, dropped.size ? without(index, grade, dropped) : new QrelsTopic(index, grade));
  }
  if (repeats.length) throw repeatError(table.bytes, repeats, file);
  return out;
}

/** One problem per repeat, with the lines of both judgments, in line order. */
function repeatError(bytes: Uint8Array, repeats: Repeat[], file: string): InputError {
  const lines = lineNumbers(bytes, repeats.flatMap((r) => [r.at, r.first]));
  const problems: Problem[] = repeats.sort((a, b) => a.at - b.at).map((r) => ({
    file,
    line: lines.get(r.at)!,
    field: "docid",
    message: `document ${JSON.stringify(r.docId)} is listed twice for topic ${
      JSON.stringify(r.topicId)
    } (first on line ${lines.get(r.first)})`,
  }));
  return new InputError(problems.slice(0, MAX_PROBLEMS), problems.length);
}

/** The 1-based line holding each byte offset (lines end at LF). */
function lineNumbers(bytes: Uint8Array, offsets: number[]): Map<number, number> {
  const out = new Map<number, number>();
  let line = 1;
  let pos = 0;
  for (const offset of [...new Set(offsets)].sort((a, b) => a - b)) {
    for (let nl = bytes.indexOf(10, pos); nl >= 0 && nl < offset; nl = bytes.indexOf(10, pos)) {
      line++;
      pos = nl + 1;
    }
    out.set(offset, line);
  }
  return out;
}

/** Number of rows in `[from, to)` ranges. */
function count(ranges: readonly number[]): number {
  let n = 0;
  for (let r = 0; r < ranges.length; r += 2) n += ranges[r + 1] - ranges[r];
  return n;
}

/** The columns of a topic whose judgments are in several blocks of the file, concatenated. */
function gather(
  table: QrelsTable,
  ranges: readonly number[],
): [Int32Array, Int32Array, Int32Array, Float64Array] {
  const n = count(ranges);
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  const hash = new Int32Array(n);
  const grade = new Float64Array(n);
  let k = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    start.set(table.start.subarray(ranges[r], ranges[r + 1]), k);
    end.set(table.end.subarray(ranges[r], ranges[r + 1]), k);
    hash.set(table.hash.subarray(ranges[r], ranges[r + 1]), k);
    grade.set(table.grade.subarray(ranges[r], ranges[r + 1]), k);
    k += ranges[r + 1] - ranges[r];
  }
  return [start, end, hash, grade];
}
