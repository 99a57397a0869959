// Encodes text into integer term ids under the English analyzer.

import { scanWords } from "./_scan.ts";
import { analyzeUncached } from "./_analyze_token.ts";

const STOP = -1;

/**
 * Encodes text into integer term ids under the English analyzer
 * ({@link analyze}): the same terms, numbered in order of first appearance.
 * Each distinct raw word is analyzed once; later occurrences cost one probe of
 * an open-addressing table keyed by a hash of the word's characters, with no
 * string allocation, which makes this the fast path for indexing and vectors.
 * Encoders are stateful (the vocabulary grows); they never modify their input.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const enc = new TermEncoder();
 * assert.deepEqual(enc.encode("Storms hit the coast; storm damage"), [0, 1, 2, 0, 3]);
 * assert.deepEqual(enc.terms, ["storm", "hit", "coast", "damag"]);
 * ```
 */
export class TermEncoder {
  /** Analyzed term of each id. */
  readonly terms: string[] = [];
  #ids = new Map<string, number>();
  /** Records of 4 ints per slot: hash, term id (-1 stop word), pool offset, length (0 = empty). */
  #table: Int32Array = new Int32Array(4 << 16);
  #used = 0;
  /** Characters of every distinct raw word, back to back. */
  #pool: Uint16Array = new Uint16Array(1 << 20);
  #poolLength = 0;

  /** The id of an analyzed term, or undefined when the encoder has not seen it. */
  id(term: string): number | undefined {
    return this.#ids.get(term);
  }

  /**
   * Appends the term ids of `text` to `out` (or a new array) and returns it.
   *
   * @param text Any text.
   * @param out Optional array to append to (reused to avoid allocation).
   * @returns `out`, with one id per analyzed term in text order.
   */
  encode(text: string, out: number[] = []): number[] {
    scanWords(text, (start, end) => {
      const id = this.#lookup(text, start, end);
      if (id !== STOP) out.push(id);
    });
    return out;
  }

  #lookup(text: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    const table = this.#table;
    const pool = this.#pool;
    const mask = (table.length >> 2) - 1;
    const len = end - start;
    let s = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const r = s << 2;
      const rlen = table[r + 3];
      if (rlen === 0) break;
      if (table[r] === h && rlen === len) {
        const off = table[r + 2];
        let i = 0;
        while (i < len && pool[off + i] === text.charCodeAt(start + i)) i++;
        if (i === len) return table[r + 1];
      }
      s = (s + 1) & mask;
    }
    return this.#insert(text, start, end, h, s);
  }

  #insert(text: string, start: number, end: number, h: number, slot: number): number {
    // Each raw word reaches here once per encoder, so the shared cache of analyzed
    // tokens would only grow: analyze it directly.
    const term = analyzeUncached(text.slice(start, end));
    let id = STOP;
    if (term !== null) {
      const known = this.#ids.get(term);
      if (known !== undefined) id = known;
      else {
        id = this.terms.length;
        this.terms.push(term);
        this.#ids.set(term, id);
      }
    }
    const len = end - start;
    if (this.#poolLength + len > this.#pool.length) {
      const pool = new Uint16Array(Math.max(this.#pool.length * 2, this.#poolLength + len));
      pool.set(this.#pool);
      this.#pool = pool;
    }
    for (let i = 0; i < len; i++) this.#pool[this.#poolLength + i] = text.charCodeAt(start + i);
    const r = slot << 2;
    this.#table[r] = h;
    this.#table[r + 1] = id;
    this.#table[r + 2] = this.#poolLength;
    this.#table[r + 3] = len;
    this.#poolLength += len;
    // Grown at three quarters full: probes mostly stay within one cache line, and the
    // smaller table misses the cache less often than a half-full one.
    if (++this.#used * 4 > (this.#table.length >> 2) * 3) this.#rehash();
    return id;
  }

  #rehash(): void {
    const old = this.#table;
    const table = new Int32Array(old.length * 2);
    const mask = (table.length >> 2) - 1;
    for (let r = 0; r < old.length; r += 4) {
      if (old[r + 3] === 0) continue;
      const h = old[r];
      let s = (h ^ (h >>> 15)) & mask;
      while (table[(s << 2) + 3] !== 0) s = (s + 1) & mask;
      const w = s << 2; // copied field by field: a subarray per entry costs more than the copy
      table[w] = h;
      table[w + 1] = old[r + 1];
      table[w + 2] = old[r + 2];
      table[w + 3] = old[r + 3];
    }
    this.#table = table;
  }
}
