/** In-memory inversion of analyzed documents into postings. */
import { TermEncoder } from "../text/mod.ts";
import { U32Buffer } from "./_growable.ts";
import type { IndexData } from "./_index_data.ts";
import { lengthToByte } from "./_small_float.ts";

/** Progress of a build: documents analyzed so far out of the total. */
export type BuildProgress = (done: number, total: number) => void;

/** Analyzes and inverts documents; doc numbers follow the input order. */
export function invert(
  docs: readonly { id: string; text: string }[],
  onProgress?: BuildProgress,
): IndexData {
  const n = docs.length;
  const encoder = new TermEncoder();
  let dfs = new Uint32Array(1 << 16);
  const docTerms = new U32Buffer(1 << 20);
  const docTfs = new U32Buffer(1 << 20);
  const docStarts = new Uint32Array(n + 1);
  const lengths = new Uint32Array(n);
  /** Per term id: [last doc + 1 that contained it, its slot in docTerms]. */
  let state = new Int32Array(2 << 16);
  /** Document number (from 1) of each id. */
  const seen = new Map<string, number>();
  const tokens: number[] = [];
  for (let d = 0; d < n; d++) {
    const { id, text } = docs[d];
    const first = seen.get(id);
    if (first !== undefined) {
      throw new Error(
        `Cannot index document number ${d + 1}: id ${
          JSON.stringify(id)
        } is already document number ${first}; give every document a unique id`,
      );
    }
    seen.set(id, d + 1);
    tokens.length = 0;
    encoder.encode(text, tokens);
    lengths[d] = tokens.length;
    docStarts[d] = docTerms.length;
    const vocabSize = encoder.terms.length;
    if (vocabSize * 2 > state.length) {
      let cap = state.length;
      while (cap < vocabSize * 2) cap *= 2;
      const next = new Int32Array(cap);
      next.set(state);
      state = next;
      const df = new Uint32Array(cap >> 1);
      df.set(dfs);
      dfs = df;
    }
    const mark = d + 1;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (state[2 * t] === mark) {
        docTfs.data[state[2 * t + 1]]++;
      } else {
        state[2 * t] = mark;
        state[2 * t + 1] = docTerms.length;
        docTerms.push(t);
        docTfs.push(1);
        dfs[t]++;
      }
    }
    if (onProgress && (d + 1) % 10000 === 0) onProgress(d + 1, n);
  }
  const terms = encoder.terms;
  docStarts[n] = docTerms.length;
  onProgress?.(n, n);

  const v = terms.length;
  const offsets = new Uint32Array(v + 1);
  for (let t = 0; t < v; t++) offsets[t + 1] = offsets[t] + dfs[t];
  const total = offsets[v];
  if (total >= 2 ** 32 - 1) throw new RangeError(`Cannot index ${total} postings: over 2^32`);
  let maxTf = 0;
  for (let i = 0; i < docTfs.length; i++) if (docTfs.data[i] > maxTf) maxTf = docTfs.data[i];
  const postingDocs = new Uint32Array(total);
  const postingTfs = maxTf < 65536 ? new Uint16Array(total) : new Uint32Array(total);
  const fill = offsets.slice(0, v);
  for (let d = 0; d < n; d++) {
    for (let i = docStarts[d]; i < docStarts[d + 1]; i++) {
      const t = docTerms.data[i];
      const p = fill[t]++;
      postingDocs[p] = d;
      postingTfs[p] = docTfs.data[i];
    }
  }
  const norms = new Uint8Array(n);
  for (let d = 0; d < n; d++) norms[d] = lengthToByte(lengths[d]);
  return {
    docIds: docs.map((x) => x.id),
    terms,
    offsets,
    postingDocs,
    postingTfs,
    lengths,
    norms,
  };
}
