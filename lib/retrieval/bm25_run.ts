/**
 * A TREC-style run from a BM25 index and a set of queries.
 *
 * @module
 */
import type { RunRow } from "@lib/types/mod.ts";
import type { Bm25Index, Bm25SearchOptions } from "./bm25_index.ts";

/** Options of {@linkcode bm25Run}. */
export interface Bm25RunOptions extends Bm25SearchOptions {
  /** Run name written in every row. Default `bm25`. */
  run?: string;
  /** Depth per query. Default 100. */
  k?: number;
}

/**
 * Searches every query and returns the rankings as run rows (rank from 1, in
 * the index's order: score descending, insertion order on ties, as Lucene).
 * Queries with empty text get no rows.
 *
 * @param index A built or loaded index.
 * @param queries Topic ids with their query text, in output order.
 * @param opts Run name (default `bm25`), depth `k` (default 100), per-search k1/b.
 * @returns The run rows.
 * @example
 * ```ts
 * import { Bm25Index, bm25Run } from "@lib/retrieval/mod.ts";
 * const index = Bm25Index.build([{ id: "d1", text: "storm surge" }]);
 * bm25Run(index, [{ topicId: "t1", text: "storm" }]); // [{ run: "bm25", topicId: "t1", docId: "d1", rank: 1, score: ... }]
 * ```
 */
export function bm25Run(
  index: Bm25Index,
  queries: readonly { topicId: string; text: string }[],
  opts: Bm25RunOptions = {},
): RunRow[] {
  const run = opts.run ?? "bm25";
  const rows: RunRow[] = [];
  for (const q of queries) {
    if (!q.text.trim()) continue;
    index.search(q.text, opts.k ?? 100, opts).forEach((h, i) =>
      rows.push({ run, topicId: q.topicId, docId: h.docId, rank: i + 1, score: h.score })
    );
  }
  return rows;
}
