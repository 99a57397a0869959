/**
 * Byte spans (document ids inside a run or qrels file's UTF-8 bytes): hashing,
 * equality, byte order, and an index from spans to keys.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The FNV-1a offset basis: the state before the first byte (each byte: `h = Math.imul(h ^ byte, 0x01000193)`). */
export const HASH_START = 0x811c9dc5;

/** Folds an FNV-1a state to the 30-bit hash {@linkcode spanHash} returns. */
export function hashEnd(h: number): number {
  return (h ^ (h >>> 30)) & 0x3fffffff;
}

/** FNV-1a hash of `bytes[a, b)` folded to 30 bits. */
export function spanHash(bytes: Uint8Array, a: number, b: number): number {
  let h = HASH_START;
  for (let i = a; i < b; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return (h ^ (h >>> 30)) & 0x3fffffff;
}

/** Whether `x[a, b)` equals `y[c, d)`. */
export function spansEqual(
  x: Uint8Array,
  a: number,
  b: number,
  y: Uint8Array,
  c: number,
  d: number,
): boolean {
  const n = b - a;
  if (n !== d - c) return false;
  for (let i = 0; i < n; i++) if (x[a + i] !== y[c + i]) return false;
  return true;
}

/** Byte order of `x[a, b)` and `y[c, d)` (C `strcmp`: unsigned bytes, then length). */
export function compareSpans(
  x: Uint8Array,
  a: number,
  b: number,
  y: Uint8Array,
  c: number,
  d: number,
): number {
  const n = Math.min(b - a, d - c);
  for (let i = 0; i < n; i++) {
    const diff = x[a + i] - y[c + i];
    if (diff !== 0) return diff;
  }
  return (b - a) - (d - c);
}

/** The text of `bytes[a, b)` (UTF-8). */
export function decodeSpan(bytes: Uint8Array, a: number, b: number): string {
  return decoder.decode(bytes.subarray(a, b));
}

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Smallest power of two >= 2n (at least 8): an open-addressing table size. */
export function tableSize(n: number): number {
  let size = 8;
  while (size < 2 * n) size *= 2;
  return size;
}

/** Where a {@linkcode SpanIndex} finds its keys, and when it builds its table. */
export interface SpanIndexOptions {
  /** `spanHash` of every key, when already known (default: computed). */
  hashes?: Int32Array;
  /** The keys are rows `[from, to)` of the columns (default: all); indices returned count from `from`. */
  from?: number;
  to?: number;
  /**
   * Build the lookup table on the first lookup rather than now (repeats are
   * still found now, in scratch space): for many small indexes of which few
   * are searched.
   */
  lazy?: boolean;
}

/**
 * A reusable open-addressing table of int32 values (rows, positions), emptied
 * in constant time: a slot is live when its stamp equals the current epoch.
 * For tables filled and dropped once per small key set (a topic's ranking, an
 * index's repeat check).
 */
export class StampedSlots {
  values = new Int32Array(256);
  stamps = new Int32Array(256);
  epoch = 0;

  /**
   * Empties the table, with room for `n` keys ({@linkcode tableSize}).
   *
   * @returns The mask of slot numbers (slot count - 1).
   */
  reset(n: number): number {
    const size = tableSize(n);
    if (this.values.length < size) {
      this.values = new Int32Array(size);
      this.stamps = new Int32Array(size);
    }
    if (++this.epoch === 0x7fffffff) {
      this.stamps.fill(0);
      this.epoch = 1;
    }
    return size - 1;
  }
}

/** The table of lazy indexes' repeat checks. */
const repeatCheck = new StampedSlots();

/**
 * A lookup from byte spans to the index of an equal key, the keys being spans
 * of one byte buffer (open addressing over typed arrays, no Map, no strings).
 */
export class SpanIndex {
  /**
   * Keys that repeat an earlier one, as pairs `[repeat, first]` of indices
   * (`[2, 0]` for keys a, b, a), in key order; empty when every key is unique.
   * A repeat is not indexed: lookups find the first occurrence.
   */
  readonly duplicates: [number, number][] = [];
  /** Number of keys. */
  readonly size: number;
  #bytes: Uint8Array;
  #start: Int32Array;
  #end: Int32Array;
  #hashes: Int32Array;
  #from: number;
  /** Row + 1 per slot; 0 = empty. Undefined until the first lookup of a lazy index. */
  #table?: Int32Array;
  #mask = 0;

  /** Indexes keys `bytes[start[i], end[i])`. */
  constructor(bytes: Uint8Array, start: Int32Array, end: Int32Array, opts: SpanIndexOptions = {}) {
    const from = opts.from ?? 0;
    const to = opts.to ?? start.length;
    this.size = to - from;
    this.#bytes = bytes;
    this.#start = start;
    this.#end = end;
    this.#from = from;
    let hashes = opts.hashes;
    if (!hashes) {
      hashes = new Int32Array(to);
      for (let i = from; i < to; i++) hashes[i] = spanHash(bytes, start[i], end[i]);
    }
    this.#hashes = hashes;
    if (opts.lazy) this.#findRepeats();
    else this.#build(true);
  }

  /** Fills the lookup table; lists repeats when asked. */
  #build(listRepeats: boolean): Int32Array {
    const bytes = this.#bytes, start = this.#start, end = this.#end, hashes = this.#hashes;
    const size = tableSize(this.size);
    const table = new Int32Array(size);
    const mask = size - 1;
    for (let i = this.#from; i < this.#from + this.size; i++) {
      const h: number = hashes[i];
      let slot: number = h & mask;
      let k = -1;
      for (; table[slot] !== 0; slot = (slot + 1) & mask) {
        k = table[slot] - 1;
        if (hashes[k] === h && spansEqual(bytes, start[k], end[k], bytes, start[i], end[i])) break;
        k = -1;
      }
      if (k < 0) table[slot] = i + 1;
      else if (listRepeats) this.duplicates.push([i - this.#from, k - this.#from]);
    }
    this.#table = table;
    this.#mask = mask;
    return table;
  }

  /** Lists the repeated keys using the shared scratch table (a lazy index's table waits). */
  #findRepeats(): void {
    const bytes = this.#bytes, start = this.#start, end = this.#end, hashes = this.#hashes;
    const mask = repeatCheck.reset(this.size);
    const { values: rows, stamps, epoch } = repeatCheck;
    for (let i = this.#from; i < this.#from + this.size; i++) {
      const h: number = hashes[i];
      let slot: number = h & mask;
      let k = -1;
      for (; stamps[slot] === epoch; slot = (slot + 1) & mask) {
        k = rows[slot];
        if (hashes[k] === h && spansEqual(bytes, start[k], end[k], bytes, start[i], end[i])) break;
        k = -1;
      }
      if (k >= 0) this.duplicates.push([i - this.#from, k - this.#from]);
      else {
        stamps[slot] = epoch;
        rows[slot] = i;
      }
    }
  }

  /** Indexes a list of strings (as their UTF-8 bytes). */
  static ofStrings(keys: readonly string[]): SpanIndex {
    const parts = keys.map(utf8);
    const start = new Int32Array(keys.length);
    const end = new Int32Array(keys.length);
    let pos = 0;
    parts.forEach((p, i) => {
      start[i] = pos;
      end[i] = pos += p.length;
    });
    const bytes = new Uint8Array(pos);
    parts.forEach((p, i) => bytes.set(p, start[i]));
    return new SpanIndex(bytes, start, end);
  }

  /**
   * The columns the keys are read from: key `i` is the bytes
   * `[start[from + i], end[from + i])`, its hash `hashes[from + i]`. For a
   * caller that probes a table of its own with every key.
   */
  get columns(): {
    bytes: Uint8Array;
    start: Int32Array;
    end: Int32Array;
    hashes: Int32Array;
    from: number;
  } {
    return {
      bytes: this.#bytes,
      start: this.#start,
      end: this.#end,
      hashes: this.#hashes,
      from: this.#from,
    };
  }

  /** The `i`-th key as a string. */
  key(i: number): string {
    const k = this.#from + i;
    return decodeSpan(this.#bytes, this.#start[k], this.#end[k]);
  }

  /** Index of the key equal to `bytes[a, b)`, or -1. */
  find(bytes: Uint8Array, a: number, b: number): number {
    return this.findHashed(bytes, a, b, spanHash(bytes, a, b));
  }

  /** Index of the key equal to `text`, or -1. */
  findString(text: string): number {
    const bytes = utf8(text);
    return this.find(bytes, 0, bytes.length);
  }

  /** As {@linkcode find}, with `h` = `spanHash(bytes, a, b)` already computed. */
  findHashed(bytes: Uint8Array, a: number, b: number, h: number): number {
    const table = this.#table ?? this.#build(false);
    const mask = this.#mask;
    for (let slot = h & mask; table[slot] !== 0; slot = (slot + 1) & mask) {
      const k = table[slot] - 1;
      if (
        this.#hashes[k] === h &&
        spansEqual(this.#bytes, this.#start[k], this.#end[k], bytes, a, b)
      ) return k - this.#from;
    }
    return -1;
  }
}
