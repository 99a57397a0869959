/** FNV-1a hash of `text[a, b)` folded to 30 bits. */
export function spanHash(text: string, a: number, b: number): number {
  let h = 0x811c9dc5;
  for (let i = a; i < b; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 30)) & 0x3fffffff;
}

/** Whether `text[a, b)` equals `text[c, d)`. */
export function spansEqual(text: string, a: number, b: number, c: number, d: number): boolean {
  if (b - a !== d - c) return false;
  for (let i = 0; i < b - a; i++) {
    if (text.charCodeAt(a + i) !== text.charCodeAt(c + i)) return false;
  }
  return true;
}

/** Smallest power of two >= 2n (at least 8): an open-addressing table size. */
export function tableSize(n: number): number {
  let size = 8;
  while (size < 2 * n) size *= 2;
  return size;
}

/**
 * A lookup from text spans to the index of an equal key, the keys being spans
 * of one key text (open addressing over typed arrays, no Map, no strings).
 */
export class SpanIndex {
  /** Index of the first key that repeats an earlier one, or -1. */
  readonly duplicate: number = -1;
  #text: string;
  #start: ArrayLike<number>;
  #end: ArrayLike<number>;
  #hashes: number[];
  #table: number[];
  #mask: number;

  /** Indexes keys `keyText.slice(start[i], end[i])`. */
  constructor(keyText: string, start: ArrayLike<number>, end: ArrayLike<number>) {
    this.#text = keyText;
    this.#start = start;
    this.#end = end;
    const n = start.length;
    this.#hashes = new Array<number>(n).fill(0);
    this.#table = new Array<number>(tableSize(n)).fill(-1);
    this.#mask = this.#table.length - 1;
    for (let i = 0; i < n; i++) {
      const h = spanHash(keyText, start[i], end[i]);
      this.#hashes[i] = h;
      let slot = h & this.#mask;
      for (; this.#table[slot] !== -1; slot = (slot + 1) & this.#mask) {
        const k = this.#table[slot];
        if (
          this.duplicate < 0 && this.#hashes[k] === h &&
          spansEqual2(keyText, start[k], end[k], keyText, start[i], end[i])
        ) {
          this.duplicate = i;
        }
      }
      this.#table[slot] = i;
    }
  }

  /** Indexes a list of strings (joined into one key text). */
  static ofStrings(keys: readonly string[]): SpanIndex {
    const start = new Int32Array(keys.length);
    const end = new Int32Array(keys.length);
    let pos = 0;
    keys.forEach((k, i) => {
      start[i] = pos;
      end[i] = pos += k.length;
    });
    return new SpanIndex(keys.join(""), start, end);
  }

  /** The `i`-th key as a string. */
  key(i: number): string {
    return this.#text.slice(this.#start[i], this.#end[i]);
  }

  /** Index of the key equal to `text[a, b)`, or -1. */
  find(text: string, a: number, b: number): number {
    return this.findHashed(text, a, b, spanHash(text, a, b));
  }

  /** As {@linkcode find}, with `h` = `spanHash(text, a, b)` already computed. */
  findHashed(text: string, a: number, b: number, h: number): number {
    for (let slot = h & this.#mask; this.#table[slot] !== -1; slot = (slot + 1) & this.#mask) {
      const k = this.#table[slot];
      if (
        this.#hashes[k] === h && spansEqual2(this.#text, this.#start[k], this.#end[k], text, a, b)
      ) return k;
    }
    return -1;
  }
}

/** Whether `x[a, b)` equals `y[c, d)`. */
export function spansEqual2(
  x: string,
  a: number,
  b: number,
  y: string,
  c: number,
  d: number,
): boolean {
  if (b - a !== d - c) return false;
  for (let i = 0; i < b - a; i++) if (x.charCodeAt(a + i) !== y.charCodeAt(c + i)) return false;
  return true;
}
