/**
 * Lucene's one-byte document length encoding (`SmallFloat.intToByte4` /
 * `byte4ToInt`): lengths below 24 are exact, longer ones keep 4 significant
 * bits. BM25 uses the decoded length, so scores match Lucene's only when the
 * same lossy lengths are used.
 */

/** Encodes a non-negative integer into 4 significant bits plus a shift. */
function longToInt4(i: number): number {
  const numBits = i === 0 ? 0 : Math.floor(Math.log2(i)) + 1;
  if (numBits < 4) return i;
  const shift = numBits - 4;
  let encoded = Math.floor(i / 2 ** shift);
  encoded &= 0x07;
  encoded |= (shift + 1) << 3;
  return encoded;
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

const MAX_INT4 = longToInt4(2 ** 31 - 1);
const NUM_FREE_VALUES = 255 - MAX_INT4;

/** Encodes a document length (number of terms) into one byte (0-255). */
export function lengthToByte(length: number): number {
  if (length < NUM_FREE_VALUES) return length;
  return NUM_FREE_VALUES + longToInt4(length - NUM_FREE_VALUES);
}

/** Decodes a length byte back to the (approximate) length. */
export function byteToLength(b: number): number {
  if (b < NUM_FREE_VALUES) return b;
  return Math.min(NUM_FREE_VALUES + int4ToLong(b - NUM_FREE_VALUES), 2 ** 31 - 1);
}
