/** Inversion of analyzed documents into postings, a segment at a time; private to `@lib/retrieval`. */
import { TermEncoder } from "../text/term_encoder.ts";
import { U32Buffer } from "./_growable.ts";

/** The postings of the documents added since the last {@link Inverter.take}. */
export interface Segment {
  /** Postings of term t are `[offsets[t], offsets[t + 1])`; length = terms known + 1. */
  offsets: Uint32Array;
  /** Document numbers (global, ascending within a term). */
  docs: Uint32Array;
  /** Term frequencies. */
  tfs: Uint16Array | Uint32Array;
}

/**
 * Analyzes documents one by one into term ids (first-occurrence order across
 * all documents) and buffers their (term, tf) pairs; {@link Inverter.take}
 * turns the buffer into per-term postings and empties it, so a build can cut
 * the collection into segments of bounded size.
 */
export class Inverter {
  #encoder: TermEncoder | undefined;
  /** Documents added. */
  documents = 0;
  /** Exact length (analyzed terms) of every document added. */
  readonly lengths = new U32Buffer(1 << 16);
  /** Largest term frequency seen. */
  maxTf = 0;
  #dfs = new Uint32Array(1 << 16);
  /** Per term id: [last doc + 1 that contained it, its slot in docTerms]. */
  #state = new Int32Array(2 << 16);
  #docTerms = new U32Buffer(1 << 16);
  #docTfs = new U32Buffer(1 << 16);
  #docStarts = new U32Buffer(1 << 12);
  #first = 0;
  /** Terms known when the last document was added (ids below it). */
  #vocab = 0;
  #tokens: number[] = [];
  /** Arrays of the last segment taken, reused by the next when `reuse` was asked. */
  #spare: { docs: Uint32Array; tfs: Uint16Array | Uint32Array } | undefined;
  readonly #reuse: boolean;

  /**
   * @param opts `segmentPostings`: the number of pending pairs at which the caller
   *   takes a segment, so the buffers stop doubling near it; `reuse`: a segment's
   *   arrays are reused by the next {@link Inverter.take} (the caller is done with a
   *   segment before it takes the next). Fresh large arrays are costly to allocate.
   */
  constructor(opts: { segmentPostings?: number; reuse?: boolean } = {}) {
    if (opts.segmentPostings !== undefined) {
      // A segment ends after the document that reaches the limit: leave room for one.
      const limit = opts.segmentPostings + (1 << 16);
      this.#docTerms.softLimit = limit;
      this.#docTfs.softLimit = limit;
    }
    this.#reuse = opts.reuse ?? false;
  }

  /** The encoder of {@link Inverter.add} (created on first use: not needed with `addIds`). */
  get encoder(): TermEncoder {
    return this.#encoder ??= new TermEncoder();
  }

  /**
   * Adds the documents of an analyzed batch in order ({@link Inverter.addIds}
   * for each), calling `after` after each one.
   */
  addBatch(
    batch: { ids: Int32Array; ends: Uint32Array },
    vocabSize: number,
    after?: () => void,
  ): void {
    const { ids, ends } = batch;
    for (let i = 0, start = 0; i < ends.length; start = ends[i++]) {
      this.addIds(ids, start, ends[i], vocabSize);
      after?.();
    }
  }

  /** (term, tf) pairs buffered since the last take. */
  get pending(): number {
    return this.#docTerms.length;
  }

  /** Analyzes and adds the next document. */
  add(text: string): void {
    const tokens = this.#tokens;
    tokens.length = 0;
    this.encoder.encode(text, tokens);
    this.addIds(tokens, 0, tokens.length, this.encoder.terms.length);
  }

  /**
   * Adds the next document as term ids already encoded (the analyzed terms
   * `ids[start..end)`, numbered as a {@link TermEncoder} numbers them).
   *
   * @param vocabSize The number of terms known so far: every id is below it.
   */
  addIds(ids: ArrayLike<number>, start: number, end: number, vocabSize: number): void {
    this.lengths.push(end - start);
    this.#docStarts.push(this.#docTerms.length);
    if (vocabSize > this.#vocab) this.#vocab = vocabSize;
    if (vocabSize * 2 > this.#state.length) {
      let cap = this.#state.length;
      while (cap < vocabSize * 2) cap *= 2;
      const next = new Int32Array(cap);
      next.set(this.#state);
      this.#state = next;
      const df = new Uint32Array(cap >> 1);
      df.set(this.#dfs);
      this.#dfs = df;
    }
    const state = this.#state;
    const dfs = this.#dfs;
    const docTerms = this.#docTerms;
    const docTfs = this.#docTfs;
    const mark = ++this.documents;
    for (let i = start; i < end; i++) {
      const t = ids[i];
      if (state[2 * t] === mark) {
        const tf = ++docTfs.data[state[2 * t + 1]];
        if (tf > this.maxTf) this.maxTf = tf;
      } else {
        state[2 * t] = mark;
        state[2 * t + 1] = docTerms.length;
        docTerms.push(t);
        docTfs.push(1);
        dfs[t]++;
      }
    }
    if (end > start && this.maxTf === 0) this.maxTf = 1;
  }

  /**
   * Frees the pair buffers and the arrays kept for reuse once the last segment
   * was taken (the vocabulary, lengths and counts stay); `add` still works after.
   */
  releaseBuffers(): void {
    if (this.pending > 0) throw new Error("Cannot release the buffers of pending postings");
    const limit = this.#docTerms.softLimit;
    this.#docTerms = new U32Buffer(1 << 16);
    this.#docTfs = new U32Buffer(1 << 16);
    this.#docTerms.softLimit = this.#docTfs.softLimit = limit;
    this.#spare = undefined;
  }

  /** The postings of the documents added since the last take; empties the buffer. */
  take(): Segment {
    const v = this.#vocab;
    const dfs = this.#dfs;
    const offsets = new Uint32Array(v + 1);
    for (let t = 0; t < v; t++) offsets[t + 1] = offsets[t] + dfs[t];
    const total = offsets[v];
    const docTerms = this.#docTerms.data;
    const docTfs = this.#docTfs.data;
    const starts = this.#docStarts;
    starts.push(this.#docTerms.length);
    let segMax = 0;
    for (let i = 0; i < this.#docTerms.length; i++) if (docTfs[i] > segMax) segMax = docTfs[i];
    // Every position of docs and tfs below total is written below, so reused arrays
    // carry nothing over from the previous segment.
    let spare = this.#spare;
    if (
      !spare || spare.docs.length < total || (segMax >= 65536 && spare.tfs.BYTES_PER_ELEMENT < 4)
    ) {
      spare = {
        docs: new Uint32Array(total),
        tfs: segMax < 65536 ? new Uint16Array(total) : new Uint32Array(total),
      };
      if (this.#reuse) this.#spare = spare;
    }
    const docs = spare.docs.subarray(0, total);
    const tfs = spare.tfs.subarray(0, total);
    const fill = offsets.slice(0, v);
    for (let j = 0; j + 1 < starts.length; j++) {
      const d = this.#first + j;
      for (let i = starts.data[j]; i < starts.data[j + 1]; i++) {
        const p = fill[docTerms[i]]++;
        docs[p] = d;
        tfs[p] = docTfs[i];
      }
    }
    dfs.fill(0);
    this.#docTerms.length = 0;
    this.#docTfs.length = 0;
    starts.length = 0;
    this.#first = this.documents;
    return { offsets, docs, tfs };
  }
}
