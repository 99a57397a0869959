/**
 * The fast path of the TREC scanners: lines of printable-ASCII columns
 * separated by single spaces, read in one pass (the document id hashed on the
 * way). Any other line goes to `splitLine`, which reads it the same way.
 */
import { POW10 } from "./_scan_bytes.ts";
import { HASH_START, hashEnd } from "./_span_hash.ts";

/**
 * End of the field starting at `i` when it holds only printable ASCII (33-127),
 * i.e. the index of the first other byte (or `bytes.length`).
 */
function plainEnd(bytes: Uint8Array, i: number): number {
  const len = bytes.length;
  while (i < len) {
    const c = bytes[i];
    if (c <= 32 || c >= 128) break;
    i++;
  }
  return i;
}

/** End of the line whose last field ends at `i`, or -1 when the field is not last (LF, CRLF or end). */
function lineEnd(bytes: Uint8Array, i: number): number {
  if (i === bytes.length || bytes[i] === 10) return i;
  if (bytes[i] === 13 && (i + 1 === bytes.length || bytes[i + 1] === 10)) return i + 1;
  return -1;
}

/**
 * Reads an integer ending at a space from `i` into `out[slot]`; returns the
 * index of that space, or -1 (not a plain integer: leave it to `integerAt`).
 */
function plainInteger(bytes: Uint8Array, i: number, out: Float64Array, slot: number): number {
  const c0 = bytes[i];
  const negative = c0 === 45;
  if (negative || c0 === 43) i++;
  const first = i;
  let v = 0;
  let c = 0;
  while (i < bytes.length && (c = bytes[i]) >= 48 && c <= 57) {
    v = v * 10 + (c - 48);
    i++;
  }
  if (i === first || v > 2147483647) return -1; // past int32: the strict path reports it
  out[slot] = negative ? -v : v;
  return i;
}

/**
 * The start shared by run and qrels lines: two plain columns, the document id
 * (hashed on the way) and an integer (rank or grade, into `nums[0]`). Writes
 * topic start and end, document id start, end and `spanHash` into `out[0..4]`
 * (the callers overwrite `out` on their slow path, so a partial write is
 * harmless).
 *
 * @returns The index after the integer, or -1 when the start is not plain.
 */
function plainHead(bytes: Uint8Array, pos: number, out: Int32Array, nums: Float64Array): number {
  const t1 = plainEnd(bytes, pos);
  if (t1 === pos || bytes[t1] !== 32) return -1;
  const c1 = plainEnd(bytes, t1 + 1);
  if (c1 === t1 + 1 || bytes[c1] !== 32) return -1;
  const d0 = c1 + 1;
  const len = bytes.length;
  let h = HASH_START;
  let i = d0;
  while (i < len) {
    const c = bytes[i];
    if (c <= 32 || c >= 128) break;
    h = Math.imul(h ^ c, 0x01000193);
    i++;
  }
  if (i === d0 || bytes[i] !== 32) return -1;
  out[0] = pos;
  out[1] = t1;
  out[2] = d0;
  out[3] = i;
  out[4] = hashEnd(h);
  return plainInteger(bytes, i + 1, nums, 0);
}

/**
 * The fast path of the run scanner: a line of six printable-ASCII columns
 * separated by single spaces, an integer rank and a plain decimal score of at
 * most 15 digits. Writes topic start and end, document id start, end and
 * `spanHash`, tag start and end, and the line's end (its LF, or the end of
 * the bytes) into `out[0..7]`, the rank and the score into `nums[0..1]`.
 *
 * @returns Whether the line was plain; otherwise the caller scans it with
 *   `splitLine` (same values, every case).
 */
export function plainRunLine(
  bytes: Uint8Array,
  pos: number,
  out: Int32Array,
  nums: Float64Array,
): boolean {
  let i = plainHead(bytes, pos, out, nums);
  if (i < 0 || bytes[i] !== 32) return false;
  const len = bytes.length;
  // Score: [+-]digits[.digits], at most 15 digits.
  i++;
  const c0 = bytes[i];
  const negative = c0 === 45;
  if (negative || c0 === 43) i++;
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  while (i < len) {
    const c = bytes[i];
    if (c === 46 && fraction < 0) fraction = 0;
    else if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else break;
    i++;
  }
  if (digits === 0 || digits > 15 || bytes[i] !== 32) return false;
  const g1 = plainEnd(bytes, i + 1);
  const eol = lineEnd(bytes, g1);
  if (g1 === i + 1 || eol < 0) return false;
  const value = fraction > 0 ? mantissa / POW10[fraction] : mantissa;
  nums[1] = negative ? -value : value;
  out[5] = i + 1;
  out[6] = g1;
  out[7] = eol;
  return true;
}

/**
 * The fast path of the qrels scanner: four printable-ASCII columns separated
 * by single spaces, an integer grade. Writes topic start and end, document id
 * start, end and `spanHash`, and the line's end into `out[0..5]`, the grade
 * into `nums[0]`.
 *
 * @returns Whether the line was plain; otherwise the caller scans it with
 *   `splitLine` (same values, every case).
 */
export function plainQrelsLine(
  bytes: Uint8Array,
  pos: number,
  out: Int32Array,
  nums: Float64Array,
): boolean {
  const i = plainHead(bytes, pos, out, nums);
  const eol = i < 0 ? -1 : lineEnd(bytes, i);
  if (eol < 0) return false;
  out[5] = eol;
  return true;
}
