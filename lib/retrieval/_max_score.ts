/**
 * Exact top-k BM25 by MaxScore over windows of document numbers (block-max
 * MaxScore). Documents are taken in windows of {@link WINDOW} numbers; in each
 * window every query term has an upper bound (the largest score it gives a
 * document of that window, 0 when it has none there). Terms whose bounds add up
 * to less than the current k-th score are non-essential: the window's documents
 * are found from the essential terms' postings alone, and the non-essential
 * terms are only probed for documents that can still reach the k-th score, most
 * promising first, stopping as soon as a document cannot. Windows whose bounds
 * together stay below it are skipped. Every document that can enter the top k
 * is scored completely, so the result equals full evaluation (scores summed in
 * double and rounded to float, as Lucene's disjunction scorer does).
 */
import type { IndexData } from "./_index_data.ts";
import { bm25Idf, type ScoringContext, termScore } from "./_scoring.ts";
import type { QueryTerm, Scratch } from "./_search.ts";
import { TopK } from "./_top_k.ts";
import { gallop, WINDOW_SHIFT, windowMaxima } from "./_window_bounds.ts";

const WINDOW = 1 << WINDOW_SHIFT;
/** Bounds are compared with this relative slack, so float rounding never prunes a hit. */
const SLACK = 1 + 1e-6;
/** At most this many non-essential terms are added from their postings per window. */
const SCATTER = 2;

/** Scores the query and returns the top k (doc number, float score), Lucene order. */
export function maxScoreSearch(
  data: IndexData,
  ctx: ScoringContext,
  docCount: number,
  query: QueryTerm[],
  k: number,
  scratch: Scratch,
): { doc: number; score: number }[] {
  const { offsets, postingDocs, postingTfs } = data;
  const { normInverse } = ctx;
  const qs = query.filter((q) => offsets[q.term + 1] > offsets[q.term]);
  const m = qs.length;
  const weights = qs.map((q) =>
    Math.fround(q.boost * bm25Idf(offsets[q.term + 1] - offsets[q.term], docCount))
  );
  const bounds = qs.map((q, j) => termScore(weights[j], 1, ctx.maxTfNorm[q.term]));
  const maxima = qs.map((q) => windowMaxima(data, ctx, q.term));
  const cur = Int32Array.from(qs, (q) => offsets[q.term]);
  const end = Int32Array.from(qs, (q) => offsets[q.term + 1]);
  const ub = new Float64Array(m);
  const order = new Int32Array(m);
  /** below[e]: sum of the bounds of order[0..e). */
  const below = new Float64Array(m + 1);
  const acc = scratch.window ??= new Float64Array(WINDOW);
  const touched = scratch.windowDocs ??= new Int32Array(WINDOW);
  const top = new TopK(k);
  let theta = -Infinity;
  const n = data.docIds.length;
  for (let lo = 0, w = 0; lo < n; lo += WINDOW, w++) {
    const hi = Math.min(n, lo + WINDOW);
    let total = 0;
    for (let j = 0; j < m; j++) {
      const wm = maxima[j];
      if (wm) {
        ub[j] = wm[w] > 0 ? termScore(weights[j], 1, wm[w]) : 0;
      } else {
        const p = cur[j] = gallop(postingDocs, cur[j], end[j], lo);
        ub[j] = p < end[j] && postingDocs[p] < hi ? bounds[j] : 0;
      }
      total += ub[j];
    }
    if (total * SLACK < theta) continue;
    // Terms by window bound, smallest first (insertion sort: queries are short).
    for (let j = 0; j < m; j++) {
      let i = j;
      while (i > 0 && ub[order[i - 1]] > ub[j]) {
        order[i] = order[i - 1];
        i--;
      }
      order[i] = j;
    }
    let ne = 0;
    while (ne < m && (below[ne] + ub[order[ne]]) * SLACK < theta) {
      below[ne + 1] = below[ne] + ub[order[ne]];
      ne++;
    }
    let nT = 0;
    for (let e = ne; e < m; e++) {
      const j = order[e];
      if (ub[j] === 0) continue;
      const wgt = weights[j];
      let p = gallop(postingDocs, cur[j], end[j], lo);
      for (const stop = end[j]; p < stop; p++) {
        const d = postingDocs[p];
        if (d >= hi) break;
        const x = d - lo;
        if (acc[x] === 0) touched[nT++] = x;
        acc[x] += termScore(wgt, postingTfs[p], normInverse[d]);
      }
      cur[j] = p;
    }
    if (nT === 0) continue;
    // Candidates in document order, so the non-essential cursors only move forward.
    const dense = nT * 16 > hi - lo;
    if (!dense) touched.subarray(0, nT).sort();
    // With many candidates, the most promising non-essential terms are cheaper to add
    // from their postings (candidates only) than to probe candidate by candidate.
    let probed = ne;
    while (dense && probed > 0 && ne - probed < SCATTER) {
      const j = order[--probed];
      const wgt = weights[j];
      let p = gallop(postingDocs, cur[j], end[j], lo);
      for (const stop = end[j]; p < stop; p++) {
        const d = postingDocs[p];
        if (d >= hi) break;
        const x = d - lo;
        if (acc[x] !== 0) acc[x] += termScore(wgt, postingTfs[p], normInverse[d]);
      }
      cur[j] = p;
    }
    const rest = below[probed];
    const count = dense ? hi - lo : nT;
    for (let i = 0; i < count; i++) {
      const x = dense ? i : touched[i];
      let s = acc[x];
      if (s === 0) continue;
      acc[x] = 0;
      if ((s + rest) * SLACK < theta) continue;
      const d = lo + x;
      let e = probed - 1;
      for (; e >= 0; e--) {
        const j = order[e];
        const p = cur[j] = gallop(postingDocs, cur[j], end[j], d);
        if (p < end[j] && postingDocs[p] === d) {
          s += termScore(weights[j], postingTfs[p], normInverse[d]);
        }
        if ((s + below[e]) * SLACK < theta) break;
      }
      if (e >= 0) continue;
      const score = Math.fround(s);
      if (score >= top.floor()) {
        top.offer(score, d);
        theta = top.floor();
      }
    }
  }
  return top.sorted();
}
