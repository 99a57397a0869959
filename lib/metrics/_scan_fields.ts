/** Column scanning shared by the fast TREC scanners. */

const SPACE = 32;
const TAB = 9;
const CR = 13;

/** Whether `c` is whitespace for `\s` other than space, tab, CR and LF (or a BOM). */
function unusualSpace(c: number): boolean {
  return c === 11 || c === 12 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * Splits `text[start, end)` into whitespace-separated fields and returns their
 * count (at most `max + 1`), or -1 when the line holds whitespace the strict
 * parsers split on but this scanner does not (no-break space, form feed...).
 */
export function scanFields(
  text: string,
  start: number,
  end: number,
  bounds: Int32Array,
  max: number,
): number {
  let n = 0;
  let i = start;
  while (i < end) {
    let c = text.charCodeAt(i);
    while (i < end && (c === SPACE || c === TAB || c === CR)) c = text.charCodeAt(++i);
    if (i >= end) break;
    if (n > max) return n;
    bounds[2 * n] = i;
    while (i < end && c !== SPACE && c !== TAB && c !== CR) {
      if ((c === 11 || c === 12 || c > 127) && unusualSpace(c)) return -1;
      c = text.charCodeAt(++i);
    }
    bounds[2 * n + 1] = i;
    n++;
  }
  return n;
}

/** Integer value of `text[a, b)` (optional sign, digits), or NaN. */
export function integer(text: string, a: number, b: number): number {
  let i = a;
  let sign = 1;
  const first = text.charCodeAt(i);
  if (first === 45 || first === 43) {
    sign = first === 45 ? -1 : 1;
    i++;
  }
  if (i >= b) return NaN;
  let v = 0;
  for (; i < b; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return sign * v;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * Decimal number of `text[a, b)`, or NaN (no hex, no Infinity). Plain decimals
 * of at most 15 digits are computed as mantissa / 10^k, which IEEE division
 * rounds exactly as `Number()` does (both operands are exact); anything else
 * goes through `Number()`.
 */
export function decimal(text: string, a: number, b: number): number {
  let i = a;
  let sign = 1;
  const first = text.charCodeAt(i);
  if (first === 45 || first === 43) {
    sign = first === 45 ? -1 : 1;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < b; i++) {
    const c = text.charCodeAt(i);
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
  const s = text.slice(a, b);
  return DECIMAL.test(s) ? Number(s) : NaN;
}
