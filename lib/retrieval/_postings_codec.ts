/**
 * Compressed posting lists; private to `@lib/retrieval`.
 *
 * A term's postings are cut into blocks of {@link BLOCK} postings. Each posting
 * is one variable-byte number (7 bits a byte, low bits first, high bit = more
 * follows): `gap * 2 + (tf === 1 ? 1 : 0)`, gap being the distance to the
 * previous document of the term minus one (the first document's number itself),
 * followed, when tf is not 1, by a second number `tf - 2`. Blocks follow each
 * other without padding; a list of more than one block has one skip entry per
 * block (`blockEntry`): its last document, the byte offset where it ends
 * (relative to the start of the term's bytes), and its impact, the largest tf
 * and the smallest document length in it, from which a score bound of the block
 * follows for any k1 and b.
 */
import { U32Buffer } from "./_growable.ts";

/** Postings per block. */
export const BLOCK = 128;
/** Numbers per skip entry in the blocks array: last doc, byte end, max tf, min length. */
export const BLOCK_FIELDS = 4;

/** A growable byte buffer. */
export class ByteSink {
  data: Uint8Array;
  length = 0;
  constructor(capacity = 1 << 16) {
    this.data = new Uint8Array(capacity);
  }
  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.length + n <= this.data.length) return;
    let cap = this.data.length * 2;
    while (cap < this.length + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  /** Appends an unsigned number below 2^53 in variable-byte form. */
  varint(v: number): void {
    this.reserve(8);
    const d = this.data;
    let n = this.length;
    while (v >= 128) {
      d[n++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    d[n++] = v;
    this.length = n;
  }
  /** The bytes written so far (a view, valid until the next write). */
  bytes(): Uint8Array {
    return this.data.subarray(0, this.length);
  }
}

/**
 * Appends the postings `[start, end)` of one term to `sink` and, when they fill
 * more than one block, their skip entries to `blocks`.
 *
 * @returns The number of bytes written.
 */
export function encodePostings(
  docs: Uint32Array,
  tfs: Uint16Array | Uint32Array,
  start: number,
  end: number,
  lengths: Uint32Array,
  sink: ByteSink,
  blocks: U32Buffer,
): number {
  const begin = sink.length;
  const skip = end - start > BLOCK;
  let prev = -1;
  for (let b = start; b < end; b += BLOCK) {
    const stop = Math.min(end, b + BLOCK);
    let maxTf = 0;
    let minLen = Infinity;
    sink.reserve((stop - b) * 10);
    for (let p = b; p < stop; p++) {
      const d = docs[p];
      const tf = tfs[p];
      sink.varint((d - prev - 1) * 2 + (tf === 1 ? 1 : 0));
      if (tf !== 1) sink.varint(tf - 2);
      prev = d;
      if (tf > maxTf) maxTf = tf;
      if (lengths[d] < minLen) minLen = lengths[d];
    }
    if (skip) {
      blocks.push(prev);
      blocks.push(sink.length - begin);
      blocks.push(maxTf);
      blocks.push(minLen);
    }
  }
  return sink.length - begin;
}

/**
 * Decodes `count` postings from `bytes[pos..]` into `docs`/`tfs` from index
 * `out`. Returns the position after the last byte read, or -1 when the bytes
 * end early or a number is too long (a corrupt file).
 */
export function decodePostings(
  bytes: Uint8Array,
  pos: number,
  limit: number,
  count: number,
  docs: Uint32Array,
  tfs: Uint16Array | Uint32Array,
  out: number,
): number {
  let prev = -1;
  for (let i = 0; i < count; i++) {
    if (pos >= limit) return -1;
    let byte = bytes[pos++];
    let v = byte & 127;
    if (byte >= 128) {
      let scale = 128;
      do {
        if (pos >= limit || scale > 2 ** 49) return -1;
        byte = bytes[pos++];
        v += (byte & 127) * scale;
        scale *= 128;
      } while (byte >= 128);
    }
    let tf = 1;
    if (v % 2 === 0) {
      if (pos >= limit) return -1;
      byte = bytes[pos++];
      tf = byte & 127;
      let scale = 128;
      while (byte >= 128) {
        if (pos >= limit || scale > 2 ** 49) return -1;
        byte = bytes[pos++];
        tf += (byte & 127) * scale;
        scale *= 128;
      }
      tf += 2;
    }
    prev = prev + 1 + Math.floor(v / 2);
    docs[out + i] = prev;
    tfs[out + i] = tf;
  }
  return pos;
}
