/**
 * A columnar, zero-copy form of one TREC run file for fast evaluation: the
 * offsets and hashes of each document id in the file's UTF-8 bytes plus scores
 * and ranks, in typed arrays, so no per-line objects or strings are created.
 *
 * @module
 */
import type { RunRow } from "@lib/types/mod.ts";
import { asBytes, decimalAt, integerAt, splitLine } from "./_scan_bytes.ts";
import { plainRunLine } from "./_plain_lines.ts";
import { decodeSpan, spanHash, spansEqual } from "./_span_hash.ts";
import { validUtf8 } from "@lib/formats/valid_utf8.ts";

/** The rows of one topic: `[from, to)` row ranges of the table (usually one). */
export interface RunTopicColumns {
  topicId: string;
  ranges: number[];
}

/** One run as columns over its source bytes; build with {@linkcode scanRunTable}. */
export interface RunTable {
  readonly kind: "run-table";
  /** Run name of every row. */
  readonly run: string;
  /** The run file's UTF-8 bytes. */
  readonly bytes: Uint8Array;
  /** Number of rows; the column arrays may be longer. */
  readonly size: number;
  /** Row i's document id is the bytes `[start[i], end[i])`. */
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** Hash of each row's document id (`spanHash`). */
  readonly hash: Int32Array;
  readonly score: Float64Array;
  readonly rank: Float64Array;
  /** Topic id -> its rows, in first-seen order. */
  readonly topics: ReadonlyMap<string, RunTopicColumns>;
}

function grow<T extends Int32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as { new (n: number): T })(size);
  b.set(a);
  return b;
}

/**
 * Scans a TREC run (`topic Q0 docid rank score tag`) into a {@linkcode RunTable},
 * accepting exactly what the strict parser of `@lib/formats` accepts.
 *
 * @param input The run file's bytes (UTF-8) or text.
 * @param opts `run`: the run's name (default: the first row's tag; one file is one run);
 *   `reuse`: a table no longer needed whose column arrays are filled again when
 *   large enough (that table is then invalid).
 * @returns The table, or `undefined` when a line is malformed (re-parse with
 *   `parseRun` for the precise error).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanRunTable } from "@lib/metrics/mod.ts";
 * const table = scanRunTable("q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\n")!;
 * assert.equal(table.run, "bm25");
 * assert.equal(table.size, 2);
 * ```
 */
export function scanRunTable(
  input: Uint8Array | string,
  opts: { run?: string; reuse?: RunTable } = {},
): RunTable | undefined {
  const bytes = asBytes(input);
  const topics = new Map<string, RunTopicColumns>();
  let capacity = Math.max(16, Math.ceil(bytes.length / 24));
  const reuse = opts.reuse;
  // Room to spare when the arrays to reuse are too small: the next chunk will fit.
  if (reuse && reuse.start.length < capacity) capacity = Math.ceil(capacity * 1.25);
  const cols: Columns = reuse && reuse.start.length >= capacity
    ? { start: reuse.start, end: reuse.end, hash: reuse.hash, score: reuse.score, rank: reuse.rank }
    : {
      start: new Int32Array(capacity),
      end: new Int32Array(capacity),
      hash: new Int32Array(capacity),
      score: new Float64Array(capacity),
      rank: new Float64Array(capacity),
    };
  capacity = cols.start.length;
  const state = new Int32Array(STATE_SIZE);
  state[TAG_START] = -1;
  const current: { topic?: RunTopicColumns } = {};
  for (;;) {
    const status = scanRows(bytes, state, cols, capacity, topics, current);
    if (status === MALFORMED) return undefined;
    if (status === DONE) break;
    capacity *= 2; // FULL
    cols.start = grow(cols.start, capacity);
    cols.end = grow(cols.end, capacity);
    cols.hash = grow(cols.hash, capacity);
    cols.score = grow(cols.score, capacity);
    cols.rank = grow(cols.rank, capacity);
  }
  const size = state[SIZE];
  current.topic?.ranges.push(size);
  const run = opts.run ??
    (state[TAG_START] >= 0 ? decodeSpan(bytes, state[TAG_START], state[TAG_END]) : "");
  return { kind: "run-table", run, bytes, size, ...cols, topics };
}

/** The columns being filled. */
interface Columns {
  start: Int32Array;
  end: Int32Array;
  hash: Int32Array;
  score: Float64Array;
  rank: Float64Array;
}

// Slots of the row loop's state, and what the loop returns.
const POS = 0, SIZE = 1, TOPIC_START = 2, TOPIC_END = 3, TAG_START = 4, TAG_END = 5;
const STATE_SIZE = 6;
const DONE = 0, FULL = 1, MALFORMED = 2;

// Scratch of the row loop.
const fields = new Int32Array(13);
const line = new Int32Array(8);
const nums = new Float64Array(2);

/**
 * Scans lines from `state[POS]` into the columns until the bytes end (DONE),
 * the columns are full (FULL) or a line is malformed (MALFORMED). The loop
 * lives apart from {@linkcode scanRunTable} and only returns a number, which
 * keeps the code the engine optimises small.
 */
function scanRows(
  bytes: Uint8Array,
  state: Int32Array,
  cols: Columns,
  capacity: number,
  topics: Map<string, RunTopicColumns>,
  current: { topic?: RunTopicColumns },
): number {
  const { start, end, hash, score, rank } = cols;
  let pos = state[POS];
  let size = state[SIZE];
  let status = DONE;
  // The state is stored on every row, so that nothing follows the loop but the return.
  while (pos < bytes.length) {
    if (size === capacity) {
      status = FULL;
      break;
    }
    // Plain lines (single spaces, ASCII, plain numbers) take the fast path.
    if (plainRunLine(bytes, pos, line, nums)) pos = line[7] + 1;
    else {
      const b = fields;
      const n = splitLine(bytes, pos, b, 6);
      // Plain lines are ASCII; any other is checked here (the reader may leave it to us).
      if (!validUtf8(bytes, pos, b[12])) {
        status = MALFORMED;
        break;
      }
      if (n === 0) {
        state[POS] = pos = b[12] + 1;
        continue;
      }
      nums[0] = n === 6 ? integerAt(bytes, b[6], b[7]) : NaN;
      nums[1] = n === 6 ? decimalAt(bytes, b[8], b[9]) : NaN;
      if (Number.isNaN(nums[0]) || Number.isNaN(nums[1])) {
        status = MALFORMED;
        break;
      }
      pos = b[12] + 1;
      line[0] = b[0];
      line[1] = b[1];
      line[2] = b[4];
      line[3] = b[5];
      line[4] = spanHash(bytes, b[4], b[5]);
      line[5] = b[10];
      line[6] = b[11];
    }
    if (nums[0] < 0) { // a negative rank: the strict parser reports it
      status = MALFORMED;
      break;
    }
    const t0 = line[0];
    const t1 = line[1];
    if (size === 0 || !spansEqual(bytes, state[TOPIC_START], state[TOPIC_END], bytes, t0, t1)) {
      newTopic(bytes, t0, t1, size, topics, current);
      state[TOPIC_START] = t0;
      state[TOPIC_END] = t1;
    }
    if (state[TAG_START] < 0) {
      state[TAG_START] = line[5];
      state[TAG_END] = line[6];
    }
    start[size] = line[2];
    end[size] = line[3];
    hash[size] = line[4];
    rank[size] = nums[0];
    score[size] = nums[1];
    size++;
    state[POS] = pos;
    state[SIZE] = size;
  }
  return status;
}

/** Starts the rows of topic `bytes[t0, t1)` at row `size`. */
function newTopic(
  bytes: Uint8Array,
  t0: number,
  t1: number,
  size: number,
  topics: Map<string, RunTopicColumns>,
  current: { topic?: RunTopicColumns },
): void {
  current.topic?.ranges.push(size);
  const topicId = decodeSpan(bytes, t0, t1);
  let topic = topics.get(topicId);
  if (!topic) topics.set(topicId, topic = { topicId, ranges: [] });
  topic.ranges.push(size);
  current.topic = topic;
}

/**
 * Row indices of one topic, in file order.
 *
 * @param topic A topic of a run table.
 * @returns The row indices.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanRunTable, topicRows } from "@lib/metrics/mod.ts";
 * const table = scanRunTable("q1 Q0 d1 1 2 r\nq2 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\n")!;
 * assert.deepEqual(topicRows(table.topics.get("q1")!), [0, 2]);
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
 * import assert from "node:assert/strict";
 * import { runTableRows, scanRunTable } from "@lib/metrics/mod.ts";
 * assert.deepEqual(runTableRows(scanRunTable("q1 Q0 d1 1 2 r\n")!), [{ run: "r", topicId: "q1", docId: "d1", rank: 1, score: 2 }]);
 * ```
 */
export function runTableRows(table: RunTable): RunRow[] {
  const rows: RunRow[] = [];
  for (const t of table.topics.values()) {
    for (const i of topicRows(t)) {
      rows.push({
        run: table.run,
        topicId: t.topicId,
        docId: decodeSpan(table.bytes, table.start[i], table.end[i]),
        rank: table.rank[i],
        score: table.score[i],
      });
    }
  }
  return rows;
}
