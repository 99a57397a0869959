/**
 * Setwise heap-sort selection of the top candidates, whatever picks the best of a set.
 *
 * @module
 */

/** What chose the best of one set: its position in the set, or why there is none. */
export type SetChoice = { best: number } | { unparsed: string } | { failed: string };

/** Options of {@link setwiseRerank}. */
export interface SetwiseOptions {
  /** Passages compared at once (a node and its `c - 1` children). Default 4. */
  c?: number;
  /** Candidates selected to the top, in order. Default 10. */
  k?: number;
  /** Candidates taking part; the rest keep their order below. Default 100. */
  depth?: number;
  /**
   * Who wins a set when no choice was read (unparsed or failed): `earliest`, the set's
   * earliest first-stage candidate, or `parent`, the node the set was sifting (as
   * llm-rankers keeps it). Default `earliest`.
   */
  unread?: "earliest" | "parent";
}

/** Per-query counts of a setwise rerank. */
export interface SetwiseCounts {
  /** Sets compared (calls made or read from a cache). */
  comparisons: number;
  /** Comparisons whose answer named no passage of the set (first-stage order decided). */
  unparsed: number;
  /** Comparisons that failed (first-stage order decided). */
  failed: number;
  /** The first failure's reason, when any failed. */
  firstError?: string;
}

/**
 * Selects the top `k` of the first `depth` candidates by setwise comparisons
 * (Zhuang et al., SIGIR 2024, heap sort): a max-heap in which every node has
 * `c - 1` children is built bottom up and the best is extracted `k` times;
 * each sift step asks `choose` for the best of a node and its children (a set
 * of at most `c`; a node without children asks nothing). The selected
 * candidates come first, in order; the other candidates follow in their
 * first-stage order. An unparsed or failed comparison is counted and decided
 * by first-stage order (the set's earliest candidate wins, so a ranker that
 * never answers leaves the first-stage ranking as it was), or with `unread:
 * "parent"` keeps the set's parent where it is.
 *
 * @param candidates The first-stage ranking, best first.
 * @param choose Picks the best of a set (candidates in heap order).
 * @param opts `c` (4), `k` (10), `depth` (100), `unread` (`earliest`).
 * @returns The new ranking and the counts.
 * @throws {RangeError} On invalid options or a choice outside the set.
 * @example
 * ```ts
 * import { setwiseRerank } from "@lib/retrieval/mod.ts";
 * const longest = (set: readonly string[]) =>
 *   Promise.resolve({ best: set.indexOf([...set].sort((a, b) => b.length - a.length)[0]) });
 * const { ranked } = await setwiseRerank(["a", "ccc", "bb", "dddd"], longest, { c: 3, k: 2 });
 * // ranked: ["dddd", "ccc", "a", "bb"]
 * ```
 */
export async function setwiseRerank<T>(
  candidates: readonly T[],
  choose: (set: readonly T[]) => Promise<SetChoice>,
  opts: SetwiseOptions = {},
): Promise<{ ranked: T[]; counts: SetwiseCounts }> {
  const c = opts.c ?? 4;
  const k = opts.k ?? 10;
  const depth = opts.depth ?? 100;
  for (const [name, v, min] of [["c", c, 2], ["k", k, 1], ["depth", depth, 1]] as const) {
    if (!Number.isInteger(v) || v < min) {
      throw new RangeError(`Setwise ${name} must be an integer >= ${min}, got ${v}`);
    }
  }
  const n = Math.min(depth, candidates.length);
  const heap = candidates.slice(0, n).map((item, first) => ({ item, first }));
  const counts: SetwiseCounts = { comparisons: 0, unparsed: 0, failed: 0 };
  const d = c - 1;
  const sift = async (i: number, size: number) => {
    for (;;) {
      const kids: number[] = [];
      for (let j = d * i + 1; j <= d * i + d && j < size; j++) kids.push(j);
      if (!kids.length) return;
      const set = [i, ...kids];
      const r = await choose(set.map((p) => heap[p].item));
      counts.comparisons++;
      let best: number;
      if ("best" in r) {
        if (!Number.isInteger(r.best) || r.best < 0 || r.best >= set.length) {
          throw new RangeError(`Setwise choice ${r.best} is outside the set of ${set.length}`);
        }
        best = r.best;
      } else {
        if ("failed" in r) {
          counts.failed++;
          counts.firstError ??= r.failed;
        } else counts.unparsed++;
        // No choice: the parent stays, or the set's earliest first-stage candidate wins
        // (so first-stage order stands).
        best = opts.unread === "parent"
          ? 0
          : set.reduce((a, p, i) => (heap[p].first < heap[set[a]].first ? i : a), 0);
      }
      if (best === 0) return;
      const j = set[best];
      [heap[i], heap[j]] = [heap[j], heap[i]];
      i = j;
    }
  };
  for (let i = Math.floor((n - 2) / d); i >= 0; i--) await sift(i, n);
  const top: { item: T; first: number }[] = [];
  for (let size = n; size > 0; size--) {
    top.push(heap[0]);
    if (top.length === k) break;
    heap[0] = heap[size - 1];
    await sift(0, size - 1);
  }
  const chosen = new Set(top.map((t) => t.first));
  const rest = candidates.filter((_, i) => !chosen.has(i));
  return { ranked: [...top.map((t) => t.item), ...rest], counts };
}
