import { SpanIndex } from "./_span_hash.ts";

/** Per-topic graded relevance judgments (trec_eval's view of a qrels file). */
export class QrelsTopic {
  /** Grades in key order; negative grades mean "in the pool but unjudged". */
  readonly gradeList: Float64Array;
  /** Non-negative grades of every judged document, sorted descending. */
  readonly sorted: Float64Array;
  #index: SpanIndex;
  #numRel = new Map<number, number>();
  #idealPrefix?: number[];
  #grades?: Map<string, number>;

  /**
   * @param topicId Topic id, for messages.
   * @param index The judged document ids.
   * @param grades Their grades, in the same order.
   * @throws {Error} When a document is listed twice.
   */
  constructor(topicId: string, index: SpanIndex, grades: Float64Array) {
    this.#index = index;
    this.gradeList = grades;
    if (index.duplicate >= 0) {
      throw new Error(
        `Cannot use qrels: document "${index.key(index.duplicate)}" is listed twice for topic ` +
          `"${topicId}"; subtopic (diversity) qrels must be given as diversity qrels (--div-qrels)`,
      );
    }
    this.sorted = grades.filter((g) => g >= 0).sort().reverse();
  }

  /** Builds the judgments of a topic from document ids and grades. */
  static of(topicId: string, docs: readonly string[], grades: readonly number[]): QrelsTopic {
    return new QrelsTopic(topicId, SpanIndex.ofStrings(docs), Float64Array.from(grades));
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

  /** Grade of `text[a, b)` (or of `text` itself), undefined when not judged. */
  gradeOf(text: string, a = 0, b = text.length): number | undefined {
    const k = this.#index.find(text, a, b);
    return k < 0 ? undefined : this.gradeList[k];
  }

  /** As {@linkcode gradeOf}, with `h` = `spanHash(text, a, b)` already computed. */
  gradeOfHashed(text: string, a: number, b: number, h: number): number | undefined {
    const k = this.#index.findHashed(text, a, b, h);
    return k < 0 ? undefined : this.gradeList[k];
  }

  /** Number of judged documents with grade >= rel (trec_eval `num_rel`). */
  numRel(rel: number): number {
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
    if (!this.#idealPrefix) {
      const prefix = new Array<number>(this.sorted.length + 1).fill(0);
      for (let i = 0; i < this.sorted.length; i++) {
        const g = this.sorted[i];
        prefix[i + 1] = prefix[i] + (g > 0 ? g / Math.log2(i + 2) : 0);
      }
      this.#idealPrefix = prefix;
    }
    return this.#idealPrefix[Math.min(k, this.sorted.length)];
  }
}
