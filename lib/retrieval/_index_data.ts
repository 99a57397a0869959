// The arrays of a BM25 index, shared by building, saving, loading and searching.

/** The arrays of a BM25 index, shared by building, saving, loading and searching. */
export interface IndexData {
  /** External document ids, by internal doc number (insertion order). */
  docIds: string[];
  /** Terms by term number (first-occurrence order). */
  terms: string[];
  /** Postings of term t are `[offsets[t], offsets[t + 1])`; length = terms + 1. */
  offsets: Uint32Array;
  /** Doc numbers of the postings, ascending within a term. */
  postingDocs: Uint32Array;
  /** Term frequency of each posting. */
  postingTfs: Uint16Array | Uint32Array;
  /** Exact number of analyzed terms of each document. */
  lengths: Uint32Array;
  /** Lucene's one-byte encoding of each length. */
  norms: Uint8Array;
  /** Term t's blocks (lists of more than 128 postings) are `[blockStarts[t], blockStarts[t + 1])`. */
  blockStarts: Uint32Array;
  /** Two numbers per block of 128 postings: the largest tf and the smallest document length. */
  blockImpacts: Uint32Array;
}

/** Collection statistics as Lucene computes them for a field. */
export interface FieldStats {
  /** Documents with at least one term (Lucene's `docCount`). */
  docCount: number;
  /** Total number of terms over all documents. */
  sumTotalTermFreq: number;
}

/** Computes Lucene's field statistics from document lengths. */
export function fieldStats(lengths: Uint32Array): FieldStats {
  let docCount = 0;
  let sum = 0;
  for (let i = 0; i < lengths.length; i++) {
    const len = lengths[i];
    if (len > 0) docCount++;
    sum += len;
  }
  return { docCount, sumTotalTermFreq: sum };
}
