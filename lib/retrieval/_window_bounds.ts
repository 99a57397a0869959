/** Per-window score bounds of posting lists and galloping search; private to `@lib/retrieval`. */
import type { IndexData } from "./_index_data.ts";
import type { ScoringContext } from "./_scoring.ts";
import { BLOCK } from "./_postings_codec.ts";

/** Log2 of the number of document numbers in a window. */
export const WINDOW_SHIFT = 11;
/** Lists shorter than this get no per-window maxima (their global bound is used). */
const MIN_POSTINGS = 512;
/** Cached lists per scoring context before the cache starts afresh (bounds memory). */
const MAX_CACHED = 20_000;

/**
 * An upper bound of `tf * normInverse` of term `t` in each window of document
 * numbers (0 where it has no posting), stored in float32 as `termScore` rounds
 * it, so `termScore(w, 1, max)` bounds every score of the window. A block of
 * 128 postings that lies inside one window contributes its impact (largest tf
 * with the norm of its shortest document); a block across windows is scanned. Computed on first use and cached in the scoring context; undefined
 * for short lists.
 */
export function windowMaxima(
  data: IndexData,
  ctx: ScoringContext,
  t: number,
): Float32Array | undefined {
  const { offsets, postingDocs, postingTfs } = data;
  if (offsets[t + 1] - offsets[t] < MIN_POSTINGS) return undefined;
  const cache = ctx.windowMaxima ??= new Map();
  let maxima = cache.get(t);
  if (maxima) return maxima;
  const { normInverse, normOfLength } = ctx;
  const { blockStarts, blockImpacts } = data;
  maxima = new Float32Array(((data.docIds.length - 1) >> WINDOW_SHIFT) + 1);
  const end = offsets[t + 1];
  for (let i = blockStarts[t], b = offsets[t]; b < end; i++, b += BLOCK) {
    const stop = Math.min(end, b + BLOCK);
    const w = postingDocs[b] >> WINDOW_SHIFT;
    if (i < blockStarts[t + 1] && postingDocs[stop - 1] >> WINDOW_SHIFT === w) {
      // A block inside one window: its impact bounds every score in it.
      const x = Math.fround(blockImpacts[2 * i] * normOfLength(blockImpacts[2 * i + 1]));
      if (x > maxima[w]) maxima[w] = x;
      continue;
    }
    for (let p = b; p < stop; p++) {
      const d = postingDocs[p];
      const x = Math.fround(postingTfs[p] * normInverse[d]);
      const wd = d >> WINDOW_SHIFT;
      if (x > maxima[wd]) maxima[wd] = x;
    }
  }
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(t, maxima);
  return maxima;
}

/** First index in `[lo, hi)` with `arr[i] >= target` (galloping then binary search). */
export function gallop(arr: Uint32Array, lo: number, hi: number, target: number): number {
  if (lo >= hi || arr[lo] >= target) return lo;
  let step = 1;
  let prev = lo;
  let i = lo;
  while (i < hi && arr[i] < target) {
    prev = i + 1;
    i += step;
    step *= 2;
  }
  let h = Math.min(i, hi);
  let l = prev;
  while (l < h) {
    const m = (l + h) >>> 1;
    if (arr[m] < target) l = m + 1;
    else h = m;
  }
  return l;
}
