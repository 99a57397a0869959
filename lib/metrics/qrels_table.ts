/**
 * A columnar, zero-copy form of a TREC qrels file for fast evaluation: the
 * offsets of each document id in the file's text plus grades, in typed arrays.
 *
 * @module
 */
import type { Qrel } from "@lib/types/mod.ts";
import { integer, scanFields } from "./_scan_fields.ts";

/** Qrels as columns over their source text; build with {@linkcode scanQrelsTable}. */
export interface QrelsTable {
  readonly kind: "qrels-table";
  readonly text: string;
  /** Number of judgments; the column arrays may be longer. */
  readonly size: number;
  /** Judgment i's document id is `text.slice(start[i], end[i])`. */
  readonly start: Int32Array;
  readonly end: Int32Array;
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
 * @param text The qrels text.
 * @returns The table, or `undefined` when a line is malformed (re-parse with
 *   `parseQrels` for the precise error).
 * @example
 * ```ts
 * const table = scanQrelsTable("q1 0 d1 2\n")!;
 * table.grade[0]; // 2
 * ```
 */
export function scanQrelsTable(text: string): QrelsTable | undefined {
  const topics = new Map<string, number[]>();
  const b = new Int32Array(10);
  let capacity = Math.max(16, Math.ceil(text.length / 16));
  let start = new Int32Array(capacity);
  let end = new Int32Array(capacity);
  let grade = new Float64Array(capacity);
  let topicId = "";
  let ranges: number[] | undefined;
  let size = 0;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos < text.length) {
    let eol = text.indexOf("\n", pos);
    if (eol < 0) eol = text.length;
    const n = scanFields(text, pos, eol, b, 4);
    pos = eol + 1;
    if (n === 0) continue;
    if (n !== 4) return undefined;
    const g = integer(text, b[6], b[7]);
    if (Number.isNaN(g)) return undefined;
    if (size === capacity) {
      capacity *= 2;
      [start, end, grade] = [grow(start, capacity), grow(end, capacity), grow(grade, capacity)];
    }
    if (!ranges || topicId.length !== b[1] - b[0] || !text.startsWith(topicId, b[0])) {
      ranges?.push(size);
      topicId = text.slice(b[0], b[1]);
      ranges = topics.get(topicId);
      if (!ranges) topics.set(topicId, ranges = []);
      ranges.push(size);
    }
    start[size] = b[4];
    end[size] = b[5];
    grade[size] = g;
    size++;
  }
  ranges?.push(size);
  return { kind: "qrels-table", text, size, start, end, grade, topics };
}

/**
 * Expands a table into qrels records (`subtopic` "0").
 *
 * @param table Scanned qrels.
 * @returns One record per judgment, grouped by topic in first-seen order.
 * @example
 * ```ts
 * qrelsTableRows(scanQrelsTable("q1 0 d1 2\n")!); // [{ topicId: "q1", docId: "d1", grade: 2, subtopic: "0" }]
 * ```
 */
export function qrelsTableRows(table: QrelsTable): Qrel[] {
  const out: Qrel[] = [];
  for (const [topicId, ranges] of table.topics) {
    for (let r = 0; r < ranges.length; r += 2) {
      for (let i = ranges[r]; i < ranges[r + 1]; i++) {
        out.push({
          topicId,
          docId: table.text.slice(table.start[i], table.end[i]),
          grade: table.grade[i],
          subtopic: "0",
        });
      }
    }
  }
  return out;
}
