/**
 * Column scanning over the UTF-8 bytes of TREC files, splitting exactly where
 * the strict parsers of `@lib/formats` split the decoded text (`\s`).
 */
import { decodeSpan } from "./_span_hash.ts";

/**
 * Byte length of the whitespace character (JavaScript `\s`, other than space,
 * tab, CR and LF) starting at `bytes[i]` = `c`, or 0 when it is not one:
 * vertical tab, form feed, and in UTF-8 U+00A0, U+1680, U+2000-U+200A,
 * U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF.
 */
export function otherSpace(bytes: Uint8Array, i: number, c: number): number {
  if (c === 11 || c === 12) return 1;
  if (c < 0xc2) return 0;
  const d = bytes[i + 1];
  if (c === 0xc2) return d === 0xa0 ? 2 : 0;
  const e = bytes[i + 2];
  if (c === 0xe2) {
    if (d === 0x80) {
      return (e >= 0x80 && e <= 0x8a) || e === 0xa8 || e === 0xa9 || e === 0xaf ? 3 : 0;
    }
    return d === 0x81 && e === 0x9f ? 3 : 0;
  }
  if (c === 0xe1) return d === 0x9a && e === 0x80 ? 3 : 0;
  if (c === 0xe3) return d === 0x80 && e === 0x80 ? 3 : 0;
  if (c === 0xef) return d === 0xbb && e === 0xbf ? 3 : 0;
  return 0;
}

/**
 * Splits the line of `bytes` starting at `pos` into whitespace-separated
 * fields. Field k (k < max) is `[bounds[2k], bounds[2k+1])`; `bounds[2 * max]`
 * receives the end of the line (its LF, or the end of the bytes).
 *
 * @returns The number of fields (counting on past `max`).
 */
export function splitLine(bytes: Uint8Array, pos: number, bounds: Int32Array, max: number): number {
  const len = bytes.length;
  let i = pos;
  let n = 0;
  while (i < len) {
    let c = bytes[i];
    // Separators.
    if (c <= 32 || c >= 128) {
      if (c === 10) break;
      if (c === 32 || c === 9 || c === 13) {
        i++;
        continue;
      }
      const w = otherSpace(bytes, i, c);
      if (w) {
        i += w;
        continue;
      }
    }
    // A field.
    const a = i;
    for (i++; i < len; i++) {
      c = bytes[i];
      if (c > 32 && c < 128) continue;
      if (c === 32 || c === 10 || c === 9 || c === 13 || otherSpace(bytes, i, c)) break;
    }
    if (n < max) {
      bounds[2 * n] = a;
      bounds[2 * n + 1] = i;
    }
    n++;
  }
  bounds[2 * max] = i;
  return n;
}

/** Integer value of `bytes[a, b)` (optional sign, ASCII digits), or NaN. */
export function integerAt(bytes: Uint8Array, a: number, b: number): number {
  let i = a;
  let sign = 1;
  const first = bytes[i];
  if (first === 45 || first === 43) {
    sign = first === 45 ? -1 : 1;
    i++;
  }
  if (i >= b) return NaN;
  let v = 0;
  for (; i < b; i++) {
    const d = bytes[i] - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  const out = sign * v;
  // Outside int32 the strict parsers report the line; let them.
  return out >= -2147483648 && out <= 2147483647 ? out : NaN;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** 10^k for k <= 15 (exact doubles). */
export const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * Decimal number of `bytes[a, b)`, or NaN (no hex, no Infinity): what the
 * strict parsers accept, valued as `Number()` does. Plain decimals of at most
 * 15 digits are computed as mantissa / 10^k, which IEEE division rounds
 * exactly as `Number()` does (both operands are exact); anything else goes
 * through `Number()`.
 */
export function decimalAt(bytes: Uint8Array, a: number, b: number): number {
  let i = a;
  let sign = 1;
  const first = bytes[i];
  if (first === 45 || first === 43) {
    sign = first === 45 ? -1 : 1;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < b; i++) {
    const c = bytes[i];
    if (c === 46 && fraction < 0) {
      fraction = 0;
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9) break;
    mantissa = mantissa * 10 + d;
    digits++;
    if (fraction >= 0) fraction++;
  }
  if (i === b && digits > 0 && digits <= 15) {
    return sign * (fraction > 0 ? mantissa / POW10[fraction] : mantissa);
  }
  const s = decodeSpan(bytes, a, b);
  const v = DECIMAL.test(s) ? Number(s) : NaN;
  return Number.isFinite(v) ? v : NaN; // 1e400: the strict parsers report the overflow
}

/** Bytes of a file read as text by the strict parsers: a string is encoded as UTF-8. */
export function asBytes(input: Uint8Array | string): Uint8Array {
  return typeof input === "string" ? new TextEncoder().encode(input) : input;
}
