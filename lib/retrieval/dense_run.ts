/**
 * A TREC-style run from a dense index and query vectors, in trec_eval's order.
 *
 * @module
 */
import { compareTrecOrder } from "@lib/formats/compare_trec_order.ts";
import type { RunRow } from "@lib/types/mod.ts";
import type { DenseIndex } from "./dense_index.ts";

/** Options of {@linkcode denseRun}. */
export interface DenseRunOptions {
  /** Run name written in every row. Default `dense`. */
  run?: string;
  /** Depth per query (a non-negative integer). Default 100. */
  k?: number;
}

/** The top k hits in trec_eval order, searching deeper while documents tie at the cutoff. */
function trecTopK(index: DenseIndex, vector: Float32Array, k: number) {
  if (k === 0) return [];
  let depth = k + 1;
  let hits = index.search(vector, depth);
  while (hits.length === depth && hits[depth - 1].score === hits[k - 1].score) {
    depth *= 2;
    hits = index.search(vector, depth);
  }
  return hits.sort(compareTrecOrder).slice(0, k);
}

/**
 * Searches every query vector and returns the rankings as run rows (rank from
 * 1, score = cosine), in trec_eval's order: score descending, ties by docid
 * descending. As in `bm25Run`, documents tied at the k-th score are cut in that
 * order, whatever their position in the index.
 *
 * @param index A dense index (e.g. `DenseIndex.fromEmbedder`).
 * @param queries Topic ids with their query vectors, in output order.
 * @param opts Run name (default `dense`), depth `k` (default 100).
 * @returns The run rows.
 * @throws {RangeError} When `k` is not a non-negative integer or a vector has the wrong length.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DenseIndex, denseRun } from "@lib/retrieval/mod.ts";
 * const index = DenseIndex.build(["a", "b"], [Float32Array.of(1, 0), Float32Array.of(0, 1)]);
 * const rows = denseRun(index, [{ topicId: "t1", vector: Float32Array.of(1, 1) }], { k: 2 });
 * assert.deepEqual(rows.map((r) => r.docId), ["b", "a"]); // tied cosines: docid descending
 * ```
 */
export function denseRun(
  index: DenseIndex,
  queries: readonly { topicId: string; vector: Float32Array }[],
  opts: DenseRunOptions = {},
): RunRow[] {
  const run = opts.run ?? "dense";
  const k = opts.k ?? 100;
  if (!Number.isInteger(k) || k < 0) {
    throw new RangeError(`Cannot make a run of depth k=${k}: use a non-negative integer`);
  }
  const rows: RunRow[] = [];
  for (const q of queries) {
    trecTopK(index, q.vector, k).forEach((h, i) =>
      rows.push({ run, topicId: q.topicId, docId: h.docId, rank: i + 1, score: h.score })
    );
  }
  return rows;
}
