/**
 * Run tables from a run file read in chunks of whole lines: each table holds
 * whole topics (the rows of a topic that continues in the next chunk are carried
 * over), so a topic grouped in the file is never split between two tables.
 *
 * @module
 */
import { type RunTable, scanRunTable } from "./run_table.ts";

/** What {@linkcode runTableChunks} yields. */
export type RunTableChunk =
  | { table: RunTable; malformed?: undefined }
  /** Bytes (from file offset `offset`, whole lines) holding a line the fast scanner rejects. */
  | { table?: undefined; malformed: Uint8Array; offset: number };

/** The first column of the line `[a, b)` (after spaces and tabs), as `[start, end)`. */
function firstColumn(bytes: Uint8Array, a: number, b: number, out: Int32Array): void {
  while (a < b && (bytes[a] === 32 || bytes[a] === 9)) a++;
  let e = a;
  while (e < b && bytes[e] !== 32 && bytes[e] !== 9 && bytes[e] !== 13) e++;
  out[0] = a;
  out[1] = e;
}

/**
 * Where the lines of the last topic of `bytes` (whole lines) start: the start
 * of the longest run of lines at the end with the last line's topic, or 0.
 */
function lastTopicStart(bytes: Uint8Array): number {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 10) end--;
  let start = bytes.lastIndexOf(10, end - 1) + 1;
  const last = new Int32Array(2);
  const other = new Int32Array(2);
  firstColumn(bytes, start, end, last);
  const len = last[1] - last[0];
  if (len === 0) return bytes.length; // a blank last line: cut after it
  while (start > 0) {
    const prevEnd = start - 1;
    const prevStart = bytes.lastIndexOf(10, prevEnd - 1) + 1;
    firstColumn(bytes, prevStart, prevEnd, other);
    if (other[1] - other[0] !== len) break;
    let same = true;
    for (let k = 0; k < len; k++) {
      if (bytes[last[0] + k] !== bytes[other[0] + k]) {
        same = false;
        break;
      }
    }
    if (!same) break;
    start = prevStart;
  }
  return start;
}

/**
 * Scans chunks of whole lines into run tables of whole topics.
 *
 * A yielded table's bytes may be a view into the chunk: use it before asking
 * for the next one. At the first chunk with a line the fast scanner rejects,
 * yields that chunk's bytes (copied, with their file offset) for the strict
 * parser to explain, and stops.
 *
 * @param chunks Chunks of whole lines in file order (e.g. `LineChunks` of `@lib/formats`).
 * @param opts `run`: the run's name (default: the first row's tag); `reuse`: fill the
 *   same arrays again for each table (each table is then valid only until the next one
 *   is asked for), so that a long file touches the same memory throughout.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runTableChunks } from "@lib/metrics/mod.ts";
 * const bytes = new TextEncoder().encode("q1 Q0 d1 1 2 r\nq2 Q0 d1 1 2 r\n");
 * const sizes = [];
 * for await (const c of runTableChunks([{ bytes, offset: 0 }])) sizes.push(c.table?.topics.size);
 * assert.deepEqual(sizes, [1, 1]);
 * ```
 */
export async function* runTableChunks(
  chunks:
    | AsyncIterable<{ bytes: Uint8Array; offset: number }>
    | Iterable<{
      bytes: Uint8Array;
      offset: number;
    }>,
  opts: { run?: string; reuse?: boolean } = {},
): AsyncGenerator<RunTableChunk> {
  let run = opts.run;
  let carry = new Uint8Array(0);
  let carryOffset = 0;
  // With `reuse`, the joined bytes and the tables' columns are filled again for each chunk.
  let joinBuffer = new Uint8Array(0);
  let previous: RunTable | undefined;
  for await (const chunk of chunks) {
    let bytes = chunk.bytes;
    let offset = chunk.offset;
    if (carry.length) {
      const size = carry.length + bytes.length;
      if (!opts.reuse) joinBuffer = new Uint8Array(size);
      else if (joinBuffer.length < size) joinBuffer = new Uint8Array(Math.ceil(size * 1.25));
      const joined = joinBuffer.subarray(0, size);
      joined.set(carry);
      joined.set(bytes, carry.length);
      bytes = joined;
      offset = carryOffset;
    }
    const cut = lastTopicStart(bytes);
    if (cut > 0) {
      const table = scanRunTable(bytes.subarray(0, cut), { run, reuse: previous });
      if (!table) {
        yield { malformed: bytes.slice(0, cut), offset };
        return;
      }
      run ??= table.size ? table.run : undefined;
      if (opts.reuse) previous = table;
      if (table.size) yield { table };
    }
    carry = bytes.slice(cut);
    carryOffset = offset + cut;
  }
  if (carry.length) {
    const table = scanRunTable(carry, { run, reuse: previous });
    if (!table) yield { malformed: carry, offset: carryOffset };
    else if (table.size) yield { table };
  }
}
