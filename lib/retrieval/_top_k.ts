// Bounded selection of the best k (score, doc) pairs in Lucene's order.

/**
 * Bounded selection of the best `k` (score, doc) pairs in Lucene's order:
 * higher score first, equal scores by lower doc number first.
 */
export class TopK {
  readonly k: number;
  size = 0;
  private scores: Float64Array;
  private docs: Int32Array;

  constructor(k: number) {
    this.k = k;
    this.scores = new Float64Array(k);
    this.docs = new Int32Array(k);
  }

  /** True when (s1, d1) ranks below (s2, d2). */
  private static worse(s1: number, d1: number, s2: number, d2: number): boolean {
    return s1 < s2 || (s1 === s2 && d1 > d2);
  }

  /** The worst kept score (-Infinity until k pairs are kept). */
  floor(): number {
    return this.size < this.k ? -Infinity : this.scores[0];
  }

  /** Offers a pair; keeps it if it ranks among the best k so far. */
  offer(score: number, doc: number): void {
    const { scores, docs } = this;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!TopK.worse(score, doc, scores[parent], docs[parent])) break;
        scores[i] = scores[parent];
        docs[i] = docs[parent];
        i = parent;
      }
      scores[i] = score;
      docs[i] = doc;
      return;
    }
    if (this.k === 0 || TopK.worse(score, doc, scores[0], docs[0])) return;
    let i = 0;
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && TopK.worse(scores[r], docs[r], scores[l], docs[l]) ? r : l;
      if (!TopK.worse(scores[c], docs[c], score, doc)) break;
      scores[i] = scores[c];
      docs[i] = docs[c];
      i = c;
    }
    scores[i] = score;
    docs[i] = doc;
  }

  /** The kept pairs, best first. */
  sorted(): { doc: number; score: number }[] {
    const out: { doc: number; score: number }[] = [];
    for (let i = 0; i < this.size; i++) out.push({ doc: this.docs[i], score: this.scores[i] });
    return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}
