/**
 * Fast scanners for well-formed TREC runs and qrels, used by `crux eval` on
 * large files. They accept exactly what the strict parsers of `@lib/formats`
 * accept and return `undefined` at the first line they do not like, so the
 * caller re-parses with the strict parser to get its precise error message.
 *
 * @module
 */
import type { Qrel, RunRow } from "@lib/types/mod.ts";
import { asBytes, decimalAt, integerAt, splitLine } from "./_scan_bytes.ts";
import { decodeSpan, spansEqual } from "./_span_hash.ts";

/** Decodes `bytes[a, b)`, reusing `prev` (found at `[pa, pb)`) when equal: ids repeat line after line. */
function reuse(bytes: Uint8Array, a: number, b: number, prev: [string, number, number]): string {
  if (prev[2] > prev[1] && spansEqual(bytes, a, b, bytes, prev[1], prev[2])) return prev[0];
  prev[0] = decodeSpan(bytes, a, b);
  prev[1] = a;
  prev[2] = b;
  return prev[0];
}

/**
 * Scans a TREC run (`topic Q0 docid rank score tag`).
 *
 * @param text The run's text.
 * @param opts `run`: run name for every row (default: each line's tag).
 * @returns The rows in file order, or `undefined` when any line is malformed.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanRun } from "@lib/metrics/mod.ts";
 * assert.deepEqual(scanRun("q1 Q0 d1 1 2.5 bm25\n"), [{ run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 }]);
 * ```
 */
export function scanRun(text: string, opts: { run?: string } = {}): RunRow[] | undefined {
  const bytes = asBytes(text);
  const rows: RunRow[] = [];
  const b = new Int32Array(13);
  const topic: [string, number, number] = ["", 0, 0];
  const tag: [string, number, number] = ["", 0, 0];
  let pos = 0;
  while (pos < bytes.length) {
    const n = splitLine(bytes, pos, b, 6);
    pos = b[12] + 1;
    if (n === 0) continue;
    if (n !== 6) return undefined;
    const rank = integerAt(bytes, b[6], b[7]);
    const score = decimalAt(bytes, b[8], b[9]);
    if (Number.isNaN(rank) || Number.isNaN(score) || rank < 0) return undefined;
    rows.push({
      run: opts.run ?? reuse(bytes, b[10], b[11], tag),
      topicId: reuse(bytes, b[0], b[1], topic),
      docId: decodeSpan(bytes, b[4], b[5]),
      rank,
      score,
    });
  }
  return rows;
}

/**
 * Scans TREC qrels (`topic iteration docid grade`); `subtopic` is the
 * iteration column.
 *
 * @param text The qrels text.
 * @returns The judgments in file order, or `undefined` when any line is malformed.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanQrels } from "@lib/metrics/mod.ts";
 * assert.deepEqual(scanQrels("q1 0 d1 2\n"), [{ topicId: "q1", subtopic: "0", docId: "d1", grade: 2 }]);
 * ```
 */
export function scanQrels(text: string): Qrel[] | undefined {
  const bytes = asBytes(text);
  const rows: Qrel[] = [];
  const b = new Int32Array(9);
  const topic: [string, number, number] = ["", 0, 0];
  const subtopic: [string, number, number] = ["", 0, 0];
  let pos = 0;
  while (pos < bytes.length) {
    const n = splitLine(bytes, pos, b, 4);
    pos = b[8] + 1;
    if (n === 0) continue;
    if (n !== 4) return undefined;
    const grade = integerAt(bytes, b[6], b[7]);
    if (Number.isNaN(grade)) return undefined;
    rows.push({
      topicId: reuse(bytes, b[0], b[1], topic),
      docId: decodeSpan(bytes, b[4], b[5]),
      grade,
      subtopic: reuse(bytes, b[2], b[3], subtopic),
    });
  }
  return rows;
}
