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
  const b = new Int32Array(9);
  const line = new Int32Array(6);
  const nums = new Float64Array(1);
  // About one row per 10 bytes (short ids and grades): growing copies every column.
  let capacity = Math.max(16, Math.ceil(bytes.length / 10));
  let start = new Int32Array(capacity);
  let end = new Int32Array(capacity);
  let hash = new Int32Array(capacity);
  let grade = new Float64Array(capacity);
  let ranges: number[] | undefined;
  let topicStart = 0;
  let topicEnd = 0;
  let size = 0;
  let pos = 0;
  while (pos < bytes.length) {
    // Plain lines (single spaces, ASCII) take the fast path.
    if (plainQrelsLine(bytes, pos, line, nums)) pos = line[5] + 1;
    else {
      const n = splitLine(bytes, pos, b, 4);
      pos = b[8] + 1;
      if (n === 0) continue;
      if (n !== 4) return undefined;
      nums[0] = integerAt(bytes, b[6], b[7]);
      if (Number.isNaN(nums[0])) return undefined;
      line.set([b[0], b[1], b[4], b[5], spanHash(bytes, b[4], b[5])]);
    }
    if (size === capacity) {
      capacity *= 2;
      [start, end, hash, grade] = [
        grow(start, capacity),
        grow(end, capacity),
        grow(hash, capacity),
        grow(grade, capacity),
      ];
    }
    const t0 = line[0];
    const t1 = line[1];
    if (!ranges || !spansEqual(bytes, topicStart, topicEnd, bytes, t0, t1)) {
      ranges?.push(size);
      const topicId = decodeSpan(bytes, t0, t1);
      ranges = topics.get(topicId);
      if (!ranges) topics.set(topicId, ranges = []);
      ranges.push(size);
      topicStart = t0;
      topicEnd = t1;
    }
    start[size] = line[2];
    end[size] = line[3];
    hash[size] = line[4];
    grade[size] = nums[0];
    size++;
  }
  ranges?.push(size);
  return { kind: "qrels-table", bytes, size, start, end, hash, grade, topics };
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
