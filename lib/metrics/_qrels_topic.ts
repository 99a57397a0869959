// Per-topic graded relevance judgments, trec_eval's view of a qrels file.

import { SpanIndex } from "./_span_hash.ts";
import { logRank } from "./_discount.ts";

/** Per-topic graded relevance judgments (trec_eval's view of a qrels file). */
export class QrelsTopic {
  /** Grades in key order; negative grades mean "in the pool but unjudged". */
  readonly gradeList: Float64Array;
  #index: SpanIndex;
  #sorted?: Float64Array;
  #counts?: Int32Array | null;
  #numRel?: Map<number, number>;
  #idealPrefix?: Float64Array;
  #grades?: Map<string, number>;

  /**
   * @param index The judged document ids, each once (the caller reports
   *   `index.duplicates`).
   * @param grades Their grades, in the same order.
   */
  constructor(index: SpanIndex, grades: Float64Array) {
    this.#index = index;
    this.gradeList = grades;
  }

  /** Builds the judgments of a topic from distinct document ids and their grades. */
  static of(docs: readonly string[], grades: readonly number[]): QrelsTopic {
    return new QrelsTopic(SpanIndex.ofStrings(docs), Float64Array.from(grades));
  }

  /** Non-negative grades of every judged document, sorted descending. */
  get sorted(): Float64Array {
    return this.#sorted ??= descending(this.gradeList);
  }

  /** Judged document ids in key order. */
  get docs(): string[] {
    return Array.from(this.gradeList, (_, i) => this.#index.key(i));
  }

  /** Judged document ids graded at least `min`, in key order. */
  docsGraded(min: number): string[] {
    const out: string[] = [];
    this.gradeList.forEach((g, i) => g >= min && out.push(this.#index.key(i)));
    return out;
  }

  /** Document id -> grade (built on first use). */
  get grades(): Map<string, number> {
    if (!this.#grades) {
      this.#grades = new Map();
      this.gradeList.forEach((g, i) => this.#grades!.set(this.#index.key(i), g));
    }
    return this.#grades;
  }

  /** Grade of a document, undefined when not judged. */
  gradeOf(docId: string): number | undefined {
    const k = this.#index.findString(docId);
    return k < 0 ? undefined : this.gradeList[k];
  }

  /** The judged document ids (each once unless `index.duplicates` lists repeats), in key order. */
  get index(): SpanIndex {
    return this.#index;
  }

  /** Grade of the document id `bytes[a, b)` whose `spanHash` is `h`, undefined when not judged. */
  gradeOfSpan(bytes: Uint8Array, a: number, b: number, h: number): number | undefined {
    const k = this.#index.findHashed(bytes, a, b, h);
    return k < 0 ? undefined : this.gradeList[k];
  }

  /** Number of judged documents with grade >= rel (trec_eval `num_rel`). */
  numRel(rel: number): number {
    const counts = this.#histogram();
    if (counts) {
      let n = 0;
      for (let g = Math.max(0, Math.ceil(rel)); g < counts.length; g++) n += counts[g];
      return n;
    }
    this.#numRel ??= new Map();
    let n = this.#numRel.get(rel);
    if (n === undefined) {
      n = 0;
      for (const g of this.sorted) if (g >= rel) n++;
      this.#numRel.set(rel, n);
    }
    return n;
  }

  /** Ideal DCG at depth `k`: judged grades sorted descending, gain = grade, discount 1/log2(rank+1). */
  idealDcg(k: number): number {
    const counts = this.#histogram();
    if (counts) {
      // The same sum as over `sorted`, walking the grades from the top.
      let n = 0;
      for (let g = 0; g < counts.length; g++) n += counts[g];
      const depth = Math.min(k, n);
      const log = logRank(depth);
      let dcg = 0;
      let rank = 0;
      for (let g = counts.length - 1; g > 0 && rank < depth; g--) {
        for (let c = counts[g]; c > 0 && rank < depth; c--) dcg += g / log[rank++];
      }
      return dcg;
    }
    if (!this.#idealPrefix) {
      const sorted = this.sorted;
      const log = logRank(sorted.length);
      const prefix = new Float64Array(sorted.length + 1);
      for (let i = 0; i < sorted.length; i++) {
        const g = sorted[i];
        prefix[i + 1] = prefix[i] + (g > 0 ? g / log[i] : 0);
      }
      this.#idealPrefix = prefix;
    }
    return this.#idealPrefix[Math.min(k, this.sorted.length)];
  }

  /** Counts of grades 0, 1, ... when every judged grade is a small integer (the usual case), else null. */
  #histogram(): Int32Array | null {
    if (this.#counts === undefined) this.#counts = histogram(this.gradeList);
    return this.#counts;
  }
}

/** Counts by value, filled and cleared by {@linkcode histogram}. */
const tally = new Int32Array(256);

/** Counts of the non-negative values of `list` by value, or null unless they are all integers below 256. */
function histogram(list: Float64Array): Int32Array | null {
  let max = -1;
  for (let i = 0; i < list.length; i++) {
    const g = list[i];
    if (g >= 0) {
      if (g >= 256 || (g | 0) !== g) {
        tally.fill(0, 0, max + 1);
        return null;
      }
      tally[g]++;
      if (g > max) max = g;
    }
  }
  const counts = tally.slice(0, max + 1);
  tally.fill(0, 0, max + 1);
  return counts;
}

/** The non-negative values of `list`, sorted descending. */
function descending(list: Float64Array): Float64Array {
  return list.filter((g) => g >= 0).sort().reverse();
}
