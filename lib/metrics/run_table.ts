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
 * @param opts `run`: the run's name (default: the first row's tag; one file is one run).
 * @returns The table, or `undefined` when a line is malformed (re-parse with
 *   `parseRun` for the precise error).
 * @example
 * ```ts
 * import { scanRunTable } from "@lib/metrics/mod.ts";
 * const table = scanRunTable("q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\n")!;
 * table.run; // "bm25"
 * table.size; // 2
 * ```
 */
export function scanRunTable(
  input: Uint8Array | string,
  opts: { run?: string } = {},
): RunTable | undefined {
  const bytes = asBytes(input);
  const topics = new Map<string, RunTopicColumns>();
  const b = new Int32Array(13);
  const line = new Int32Array(8);
  const nums = new Float64Array(2);
  let capacity = Math.max(16, Math.ceil(bytes.length / 24));
  let start = new Int32Array(capacity);
  let end = new Int32Array(capacity);
  let hash = new Int32Array(capacity);
  let score = new Float64Array(capacity);
  let rank = new Float64Array(capacity);
  let current: RunTopicColumns | undefined;
  let topicStart = 0;
  let topicEnd = 0;
  let run = opts.run;
  let size = 0;
  let pos = 0;
  while (pos < bytes.length) {
    // Plain lines (single spaces, ASCII, plain numbers) take the fast path.
    if (plainRunLine(bytes, pos, line, nums)) pos = line[7] + 1;
    else {
      const n = splitLine(bytes, pos, b, 6);
      pos = b[12] + 1;
      if (n === 0) continue;
      if (n !== 6) return undefined;
      nums[0] = integerAt(bytes, b[6], b[7]);
      nums[1] = decimalAt(bytes, b[8], b[9]);
      if (Number.isNaN(nums[0]) || Number.isNaN(nums[1])) return undefined;
      line.set([b[0], b[1], b[4], b[5], spanHash(bytes, b[4], b[5]), b[10], b[11]]);
    }
    if (nums[0] < 0) return undefined; // a negative rank: the strict parser reports it
    if (size === capacity) {
      capacity *= 2;
      [start, end, hash, score, rank] = [
        grow(start, capacity),
        grow(end, capacity),
        grow(hash, capacity),
        grow(score, capacity),
        grow(rank, capacity),
      ];
    }
    const t0 = line[0];
    const t1 = line[1];
    if (!current || !spansEqual(bytes, topicStart, topicEnd, bytes, t0, t1)) {
      if (current) current.ranges.push(size);
      const topicId = decodeSpan(bytes, t0, t1);
      current = topics.get(topicId);
      if (!current) topics.set(topicId, current = { topicId, ranges: [] });
      current.ranges.push(size);
      topicStart = t0;
      topicEnd = t1;
    }
    run ??= decodeSpan(bytes, line[5], line[6]);
    start[size] = line[2];
    end[size] = line[3];
    hash[size] = line[4];
    rank[size] = nums[0];
    score[size] = nums[1];
    size++;
  }
  current?.ranges.push(size);
  return {
    kind: "run-table",
    run: run ?? "",
    bytes,
    size,
    start,
    end,
    hash,
    score,
    rank,
    topics,
  };
}

/**
 * Row indices of one topic, in file order.
 *
 * @param topic A topic of a run table.
 * @returns The row indices.
 * @example
 * ```ts
 * import { scanRunTable, topicRows } from "@lib/metrics/mod.ts";
 * const table = scanRunTable("q1 Q0 d1 1 2 r\nq2 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\n")!;
 * topicRows(table.topics.get("q1")!); // [0, 2]
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
 * import { runTableRows, scanRunTable } from "@lib/metrics/mod.ts";
 * runTableRows(scanRunTable("q1 Q0 d1 1 2 r\n")!);
 * // [{ run: "r", topicId: "q1", docId: "d1", rank: 1, score: 2 }]
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
