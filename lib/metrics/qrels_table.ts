/**
 * A columnar, zero-copy form of a TREC qrels file for fast evaluation: the
 * offsets and hashes of each document id in the file's UTF-8 bytes plus
 * grades, in typed arrays.
 *
 * @module
 */
import type { Qrel } from "@lib/types/mod.ts";
import { asBytes, integerAt, splitLine } from "./_scan_bytes.ts";
import { plainQrelsLine } from "./_plain_lines.ts";
import { decodeSpan, spanHash, spansEqual } from "./_span_hash.ts";
import { validUtf8 } from "@lib/formats/valid_utf8.ts";

/** Qrels as columns over their source bytes; build with {@linkcode scanQrelsTable}. */
export interface QrelsTable {
  readonly kind: "qrels-table";
  /** The qrels file's UTF-8 bytes. */
  readonly bytes: Uint8Array;
  /** Number of judgments; the column arrays may be longer. */
  readonly size: number;
  /** Judgment i's document id is the bytes `[start[i], end[i])`. */
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** Hash of each judgment's document id (`spanHash`). */
  readonly hash: Int32Array;
  readonly grade: Float64Array;
  /** Topic id -> `[from, to)` row ranges, in first-seen order. */
  readonly topics: ReadonlyMap<string, number[]>;
}

function grow<T extends Int32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as { new (n: number): T })(size);
  b.set(a);
  return b;
}

/**
 * Scans TREC qrels (`topic iteration docid grade`) into a {@linkcode QrelsTable},
 * accepting exactly what the strict parser of `@lib/formats` accepts. The
 * iteration column is not kept: use `scanQrels` for diversity qrels.
 *
 * @param input The qrels file's bytes (UTF-8) or text.
 * @returns The table, or `undefined` when a line is malformed (re-parse with
 *   `parseQrels` for the precise error).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanQrelsTable } from "@lib/metrics/mod.ts";
 * const table = scanQrelsTable("q1 0 d1 2\n")!;
 * assert.equal(table.grade[0], 2);
 * ```
 */
export function scanQrelsTable(input: Uint8Array | string): QrelsTable | undefined {
  const bytes = asBytes(input);
  const topics = new Map<string, number[]>();
  // About one row per 10 bytes (short ids and grades): growing copies every column.
  let capacity = Math.max(16, Math.ceil(bytes.length / 10));
  const cols: Columns = {
    start: new Int32Array(capacity),
    end: new Int32Array(capacity),
    hash: new Int32Array(capacity),
    grade: new Float64Array(capacity),
  };
  const state = new Int32Array(STATE_SIZE);
  const current: { ranges?: number[] } = {};
  for (;;) {
    const status = scanRows(bytes, state, cols, capacity, topics, current);
    if (status === MALFORMED) return undefined;
    if (status === DONE) break;
    capacity *= 2; // FULL
    cols.start = grow(cols.start, capacity);
    cols.end = grow(cols.end, capacity);
    cols.hash = grow(cols.hash, capacity);
    cols.grade = grow(cols.grade, capacity);
  }
  const size = state[SIZE];
  current.ranges?.push(size);
  return { kind: "qrels-table", bytes, size, ...cols, topics };
}

/** The columns being filled. */
interface Columns {
  start: Int32Array;
  end: Int32Array;
  hash: Int32Array;
  grade: Float64Array;
}

// Slots of the row loop's state, and what the loop returns.
const POS = 0, SIZE = 1, TOPIC_START = 2, TOPIC_END = 3;
const STATE_SIZE = 4;
const DONE = 0, FULL = 1, MALFORMED = 2;

// Scratch of the row loop.
const fields = new Int32Array(9);
const line = new Int32Array(6);
const nums = new Float64Array(1);

/**
 * Scans lines from `state[POS]` into the columns until the bytes end (DONE),
 * the columns are full (FULL) or a line is malformed (MALFORMED). The loop
 * lives apart from {@linkcode scanQrelsTable} and only returns a number, which
 * keeps the code the engine optimises small.
 */
function scanRows(
  bytes: Uint8Array,
  state: Int32Array,
  cols: Columns,
  capacity: number,
  topics: Map<string, number[]>,
  current: { ranges?: number[] },
): number {
  const { start, end, hash, grade } = cols;
  let pos = state[POS];
  let size = state[SIZE];
  let status = DONE;
  while (pos < bytes.length) {
    if (size === capacity) {
      status = FULL;
      break;
    }
    // Plain lines (single spaces, ASCII) take the fast path.
    if (plainQrelsLine(bytes, pos, line, nums)) pos = line[5] + 1;
    else {
      const b = fields;
      const n = splitLine(bytes, pos, b, 4);
      // Plain lines are ASCII; any other is checked here (the reader may leave it to us).
      if (!validUtf8(bytes, pos, b[8])) {
        status = MALFORMED;
        break;
      }
      if (n === 0) {
        state[POS] = pos = b[8] + 1;
        continue;
      }
      nums[0] = n === 4 ? integerAt(bytes, b[6], b[7]) : NaN;
      if (Number.isNaN(nums[0])) {
        status = MALFORMED;
        break;
      }
      pos = b[8] + 1;
      line[0] = b[0];
      line[1] = b[1];
      line[2] = b[4];
      line[3] = b[5];
      line[4] = spanHash(bytes, b[4], b[5]);
    }
    const t0 = line[0];
    const t1 = line[1];
    if (size === 0 || !spansEqual(bytes, state[TOPIC_START], state[TOPIC_END], bytes, t0, t1)) {
      newTopic(bytes, t0, t1, size, topics, current);
      state[TOPIC_START] = t0;
      state[TOPIC_END] = t1;
    }
    start[size] = line[2];
    end[size] = line[3];
    hash[size] = line[4];
    grade[size] = nums[0];
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
  topics: Map<string, number[]>,
  current: { ranges?: number[] },
): void {
  current.ranges?.push(size);
  const topicId = decodeSpan(bytes, t0, t1);
  let ranges = topics.get(topicId);
  if (!ranges) topics.set(topicId, ranges = []);
  ranges.push(size);
  current.ranges = ranges;
}

/**
 * Expands a table into qrels records (`subtopic` "0").
 *
 * @param table Scanned qrels.
 * @returns One record per judgment, grouped by topic in first-seen order.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qrelsTableRows, scanQrelsTable } from "@lib/metrics/mod.ts";
 * assert.deepEqual(qrelsTableRows(scanQrelsTable("q1 0 d1 2\n")!), [{ topicId: "q1", docId: "d1", grade: 2, subtopic: "0" }]);
 * ```
 */
export function qrelsTableRows(table: QrelsTable): Qrel[] {
  const out: Qrel[] = [];
  for (const [topicId, ranges] of table.topics) {
    for (let r = 0; r < ranges.length; r += 2) {
      for (let i = ranges[r]; i < ranges[r + 1]; i++) {
        out.push({
          topicId,
          docId: decodeSpan(table.bytes, table.start[i], table.end[i]),
          grade: table.grade[i],
          subtopic: "0",
        });
      }
    }
  }
  return out;
}
