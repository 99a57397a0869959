/**
 * A columnar, zero-copy form of one TREC run file for fast evaluation: the
 * offsets of each document id in the file's text plus scores and ranks, in
 * typed arrays, so no per-line objects or strings are created.
 *
 * @module
 */
import type { RunRow } from "@lib/types/mod.ts";
import { decimal, integer, scanFields } from "./_scan_fields.ts";

/** The rows of one topic: `[from, to)` row ranges of the table (usually one). */
export interface RunTopicColumns {
  topicId: string;
  ranges: number[];
}

/** One run as columns over its source text; build with {@linkcode scanRunTable}. */
export interface RunTable {
  readonly kind: "run-table";
  /** Run name of every row. */
  readonly run: string;
  /** The run file's text. */
  readonly text: string;
  /** Number of rows; the column arrays may be longer. */
  readonly size: number;
  /** Row i's document id is `text.slice(start[i], end[i])`. */
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly score: Float64Array;
  readonly rank: Float64Array;
  /** Topic id -> its rows, in first-seen order. */
  readonly topics: ReadonlyMap<string, RunTopicColumns>;
}

/** Whitespace beyond Latin-1 that `\s` matches (a regexp V8 rejects at once on one-byte text). */
const WIDE_SPACE = /[\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/** Whether `text` holds a character ruling out the single-space fast path (indexOf is much faster than a regexp scan). */
function irregular(text: string): boolean {
  for (const c of ["\t", "\r", "\v", "\f", "\u00a0"]) if (text.indexOf(c) >= 0) return true;
  return WIDE_SPACE.test(text);
}

/** Splits a line with exactly six single-space-separated, non-empty columns; false otherwise. */
function splitSpaces(text: string, from: number, eol: number, b: Int32Array): boolean {
  let a = from;
  for (let k = 0; k < 5; k++) {
    const s = text.indexOf(" ", a);
    if (s <= a || s >= eol) return false;
    b[2 * k] = a;
    b[2 * k + 1] = s;
    a = s + 1;
  }
  const s = text.indexOf(" ", a);
  if (a >= eol || (s >= 0 && s < eol)) return false;
  b[10] = a;
  b[11] = eol;
  return true;
}

function grow<T extends Int32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as { new (n: number): T })(size);
  b.set(a);
  return b;
}

/**
 * Scans a TREC run into a {@linkcode RunTable}, accepting exactly what the
 * strict parser of `@lib/formats` accepts.
 *
 * @param text The run file's text.
 * @param opts `run`: the run's name (required: one file is one run).
 * @returns The table, or `undefined` when a line is malformed (re-parse with
 *   `parseRun` for the precise error).
 * @example
 * ```ts
 * const table = scanRunTable(await Deno.readTextFile("bm25.run"), { run: "bm25" });
 * ```
 */
export function scanRunTable(text: string, opts: { run: string }): RunTable | undefined {
  const topics = new Map<string, RunTopicColumns>();
  const b = new Int32Array(14);
  let capacity = Math.max(16, Math.ceil(text.length / 24));
  let start = new Int32Array(capacity);
  let end = new Int32Array(capacity);
  let score = new Float64Array(capacity);
  let rank = new Float64Array(capacity);
  let current: RunTopicColumns | undefined;
  let size = 0;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // Files with only single spaces between columns (the usual case) are split with
  // indexOf; anything else (tabs, CR, repeated spaces) goes through scanFields.
  const plain = !irregular(pos ? text.slice(1) : text);
  while (pos < text.length) {
    let eol = text.indexOf("\n", pos);
    if (eol < 0) eol = text.length;
    const n = (plain && splitSpaces(text, pos, eol, b)) ? 6 : scanFields(text, pos, eol, b, 6);
    pos = eol + 1;
    if (n === 0) continue;
    if (n !== 6) return undefined;
    const r = integer(text, b[6], b[7]);
    const s = decimal(text, b[8], b[9]);
    if (Number.isNaN(r) || Number.isNaN(s)) return undefined;
    if (size === capacity) {
      capacity *= 2;
      [start, end, score, rank] = [
        grow(start, capacity),
        grow(end, capacity),
        grow(score, capacity),
        grow(rank, capacity),
      ];
    }
    if (
      !current || current.topicId.length !== b[1] - b[0] || !text.startsWith(current.topicId, b[0])
    ) {
      if (current) current.ranges.push(size);
      const topicId = text.slice(b[0], b[1]);
      current = topics.get(topicId);
      if (!current) topics.set(topicId, current = { topicId, ranges: [] });
      current.ranges.push(size);
    }
    start[size] = b[4];
    end[size] = b[5];
    score[size] = s;
    rank[size] = r;
    size++;
  }
  current?.ranges.push(size);
  return { kind: "run-table", run: opts.run, text, size, start, end, score, rank, topics };
}

/**
 * Row indices of one topic, in file order.
 *
 * @param topic A topic of a run table.
 * @returns The row indices.
 * @example
 * ```ts
 * topicRows(table.topics.get("q1")!); // [0, 1, 2, ...]
 * ```
 */
export function topicRows(topic: RunTopicColumns): number[] {
  const rows: number[] = [];
  for (let i = 0; i < topic.ranges.length; i += 2) {
    for (let r = topic.ranges[i]; r < topic.ranges[i + 1]; r++) rows.push(r);
  }
  return rows;
}

/**
 * Expands a table into run rows (for APIs that take `RunRow[]`).
 *
 * @param table A scanned run.
 * @returns One row per line, grouped by topic in first-seen order.
 * @example
 * ```ts
 * runTableRows(scanRunTable("q1 Q0 d1 1 2 r\n", { run: "r" })!); // [{ run: "r", topicId: "q1", ... }]
 * ```
 */
export function runTableRows(table: RunTable): RunRow[] {
  const rows: RunRow[] = [];
  for (const t of table.topics.values()) {
    for (const i of topicRows(t)) {
      rows.push({
        run: table.run,
        topicId: t.topicId,
        docId: table.text.slice(table.start[i], table.end[i]),
        rank: table.rank[i],
        score: table.score[i],
      });
    }
  }
  return rows;
}
