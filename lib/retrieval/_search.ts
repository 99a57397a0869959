/**
 * Exact top-k BM25 evaluation of a bag of query terms, term at a time with
 * "continue" pruning: terms are scored from rarest to most frequent; once the
 * remaining terms together cannot lift an unseen document above the current
 * k-th partial score, the remaining (long) posting lists only update the
 * surviving candidates, found by galloping search. The result equals full
 * evaluation (scores summed in double and rounded to float, as Lucene's
 * disjunction scorer does).
 *
 * Searches use the windowed MaxScore of `_max_score.ts`, which is faster on long
 * queries; this independent evaluation is kept as its cross-check in tests.
 */
import type { IndexData } from "./_index_data.ts";
import { bm25Idf, type ScoringContext, termScore } from "./_scoring.ts";
import { TopK } from "./_top_k.ts";
import { gallop } from "./_window_bounds.ts";

/** Reusable per-index buffers (one search at a time). */
export interface Scratch {
  acc: Float64Array;
  touched: Int32Array;
  /** Window accumulator and its touched slots (MaxScore search). */
  window?: Float64Array;
  windowDocs?: Int32Array;
  /** Score lookup of one term: `[tf << 8 | norm byte]` for tf below {@link TABLE_TF}. */
  table?: Float32Array;
}

/** Term frequencies below this are looked up (tf 0 is never used). */
const TABLE_TF = 32;
/** Posting lists shorter than this are scored directly (building the table costs 8k scores). */
const TABLE_MIN_POSTINGS = 16_384;

/** Fills the score table of a term with weight `w` (float32, exactly `termScore`). */
function scoreTable(w: number, normByByte: Float32Array, scratch: Scratch): Float32Array {
  const table = scratch.table ??= new Float32Array(TABLE_TF << 8);
  for (let tf = 1; tf < TABLE_TF; tf++) {
    for (let b = 0; b < 256; b++) table[(tf << 8) | b] = termScore(w, tf, normByByte[b]);
  }
  return table;
}

/** A query term with its multiplicity in the query (Lucene merges duplicate clauses into a boost). */
export interface QueryTerm {
  term: number;
  boost: number;
}

const f = Math.fround;

/** The k-th largest accumulated score among `docs[0..n)` (-Infinity when fewer than k). */
function kthLargest(acc: Float64Array, docs: Int32Array, n: number, k: number): number {
  if (n < k) return -Infinity;
  const heap = new TopK(k);
  for (let i = 0; i < n; i++) {
    const s = acc[docs[i]];
    if (s > heap.floor()) heap.offer(s, 0);
  }
  return heap.floor();
}

/** Scores the query and returns the top k (doc number, float score), Lucene order. */
export function searchTerms(
  data: IndexData,
  ctx: ScoringContext,
  docCount: number,
  query: QueryTerm[],
  k: number,
  scratch: Scratch,
): { doc: number; score: number }[] {
  const { offsets, postingDocs, postingTfs, norms } = data;
  const { normInverse, maxTfNorm } = ctx;
  const byteNorms = ctx.normByByte !== undefined;
  const { acc, touched } = scratch;
  const df = (t: number) => offsets[t + 1] - offsets[t];
  const qs = query.filter((q) => df(q.term) > 0).sort((a, b) =>
    df(a.term) - df(b.term) || a.term - b.term
  );
  const weights = qs.map((q) => f(q.boost * bm25Idf(df(q.term), docCount)));
  const bounds = qs.map((q, j) => termScore(weights[j], 1, maxTfNorm[q.term]));
  const rest = new Float64Array(qs.length + 1);
  for (let j = qs.length - 1; j >= 0; j--) rest[j] = rest[j + 1] + bounds[j];

  let nTouched = 0;
  let cands: Int32Array | null = null;
  let nCands = 0;
  for (let j = 0; j < qs.length; j++) {
    const t = qs[j].term;
    const w = weights[j];
    const start = offsets[t];
    const end = offsets[t + 1];
    if (cands === null && k > 0 && nTouched >= k && end - start >= nTouched / 4) {
      const theta = kthLargest(acc, touched, nTouched, k);
      if (rest[j] * (1 + 1e-6) < theta) {
        // Keep the documents that can still reach theta, then sort only those.
        const kept = new Int32Array(nTouched);
        let m = 0;
        for (let i = 0; i < nTouched; i++) {
          if (acc[touched[i]] + rest[j] * (1 + 1e-6) >= theta) kept[m++] = touched[i];
        }
        cands = kept.subarray(0, m).sort();
        nCands = m;
      }
    }
    if (cands === null && byteNorms && end - start > TABLE_MIN_POSTINGS) {
      // One-byte norms: a document's normalisation is one of 256 values, so the
      // term's scores for small tf are looked up instead of divided out (same floats).
      const table = scoreTable(w, ctx.normByByte!, scratch);
      for (let p = start; p < end; p++) {
        const d = postingDocs[p];
        const tf = postingTfs[p];
        const s = tf < TABLE_TF ? table[(tf << 8) | norms[d]] : termScore(w, tf, normInverse[d]);
        if (acc[d] === 0) touched[nTouched++] = d;
        acc[d] += s;
      }
    } else if (cands === null) {
      for (let p = start; p < end; p++) {
        const d = postingDocs[p];
        const s = w - f(w / f(1 + f(postingTfs[p] * normInverse[d])));
        if (acc[d] === 0) touched[nTouched++] = d;
        acc[d] += f(s);
      }
    } else {
      let p = start;
      const galloping = nCands * 8 < end - start;
      for (let i = 0; i < nCands && p < end; i++) {
        const d = cands[i];
        if (galloping) p = gallop(postingDocs, p, end, d);
        else while (p < end && postingDocs[p] < d) p++;
        if (p < end && postingDocs[p] === d) {
          acc[d] += termScore(w, postingTfs[p], normInverse[d]);
          p++;
        }
      }
      // Partial scores only grow, so the k-th of them bounds the final k-th score
      // from below: drop candidates that cannot reach it with the terms left.
      // Fewer candidates let the next (longer) lists be skipped by galloping.
      if (j + 1 < qs.length && nCands > k) {
        const theta = kthLargest(acc, cands, nCands, k);
        const bound = rest[j + 1] * (1 + 1e-6);
        let m = 0;
        for (let i = 0; i < nCands; i++) {
          if (acc[cands[i]] + bound >= theta) cands[m++] = cands[i];
        }
        nCands = m;
      }
    }
  }
  const top = new TopK(k);
  const pool = cands ?? touched;
  const nPool = cands ? nCands : nTouched;
  for (let i = 0; i < nPool; i++) {
    const d = pool[i];
    const s = f(acc[d]);
    if (s >= top.floor()) top.offer(s, d);
  }
  for (let i = 0; i < nTouched; i++) acc[touched[i]] = 0;
  return top.sorted();
}
