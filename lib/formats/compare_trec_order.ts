/**
 * trec_eval's ranking order of run rows.
 *
 * @module
 */
import { compareBytes } from "./compare_bytes.ts";

/**
 * Orders ranked items as trec_eval does: score descending, then document id
 * descending in byte order ({@linkcode compareBytes}). Use it with `sort`.
 *
 * @param a First item.
 * @param b Second item.
 * @returns Negative when `a` ranks first, positive when `b` does, 0 for the same (score, id).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareTrecOrder } from "@lib/formats/mod.ts";
 * const hits = [{ docId: "a", score: 1 }, { docId: "c", score: 1 }, { docId: "b", score: 2 }];
 * assert.deepEqual(hits.sort(compareTrecOrder).map((h) => h.docId), ["b", "c", "a"]);
 * ```
 */
export function compareTrecOrder(
  a: { score: number; docId: string },
  b: { score: number; docId: string },
): number {
  return b.score - a.score || compareBytes(b.docId, a.docId);
}
