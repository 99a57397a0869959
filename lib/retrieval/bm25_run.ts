/**
 * A TREC-style run from a BM25 index and a set of queries, in trec_eval's order.
 *
 * @module
 */
import { compareTrecOrder } from "@lib/formats/compare_trec_order.ts";
import type { RunRow } from "@lib/types/mod.ts";
import type { Bm25Hit, Bm25Index, Bm25SearchOptions } from "./bm25_index.ts";

/** Options of {@linkcode bm25Run}. */
export interface Bm25RunOptions extends Bm25SearchOptions {
  /** Run name written in every row. Default `bm25`. */
  run?: string;
  /** Depth per query (a non-negative integer). Default 100. */
  k?: number;
}

/**
 * The top `k` hits of a query in trec_eval's order (score descending, docid
 * descending in byte order). `Bm25Index.search` keeps Lucene's order (ties by
 * insertion order), so its top k can hold the wrong members of a group of
 * documents tied at the cutoff: this searches deeper until the group is complete,
 * then sorts and cuts.
 */
function trecTopK(index: Bm25Index, text: string, k: number, opts: Bm25SearchOptions): Bm25Hit[] {
  if (k === 0) return [];
  let depth = k + 1;
  let hits = index.search(text, depth, opts);
  while (hits.length === depth && hits[depth - 1].score === hits[k - 1].score) {
    depth *= 2;
    hits = index.search(text, depth, opts);
  }
  return hits.sort(compareTrecOrder).slice(0, k);
}

/**
 * Searches every query and returns the rankings as run rows, rank from 1, in
 * trec_eval's order: score descending, ties by docid descending (UTF-8 byte
 * order, `compareTrecOrder` of `@lib/formats`). The cutoff follows the same
 * order: when documents tie at the k-th score, the ones with the largest ids are
 * kept (whatever their insertion order). Queries with empty text get no rows.
 *
 * @param index A built or loaded index.
 * @param queries Topic ids with their query text, in output order.
 * @param opts Run name (default `bm25`), depth `k` (default 100), per-search k1/b.
 * @returns The run rows.
 * @throws {RangeError} When `k` is not a non-negative integer or k1/b are invalid.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Bm25Index, bm25Run } from "@lib/retrieval/mod.ts";
 * const index = Bm25Index.build([
 *   { id: "a", text: "apple pie" },
 *   { id: "c", text: "apple pie" },
 *   { id: "b", text: "apple pie" },
 * ]);
 * assert.deepEqual(bm25Run(index, [{ topicId: "t1", text: "apple" }], { k: 2 }).map((r) => r.docId), ["c", "b"]);
 * ```
 */
export function bm25Run(
  index: Bm25Index,
  queries: readonly { topicId: string; text: string }[],
  opts: Bm25RunOptions = {},
): RunRow[] {
  const run = opts.run ?? "bm25";
  const k = opts.k ?? 100;
  if (!Number.isInteger(k) || k < 0) {
    throw new RangeError(`Cannot make a run of depth k=${k}: use a non-negative integer`);
  }
  const rows: RunRow[] = [];
  for (const q of queries) {
    if (!q.text.trim()) continue;
    trecTopK(index, q.text, k, opts).forEach((h, i) =>
      rows.push({ run, topicId: q.topicId, docId: h.docId, rank: i + 1, score: h.score })
    );
  }
  return rows;
}
