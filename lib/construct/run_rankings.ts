/**
 * Rankings of a run by topic, and run rows for a context given in rank order.
 *
 * @module
 */
import type { RunRow } from "@lib/types/mod.ts";

const byScore = (a: RunRow, b: RunRow) =>
  b.score - a.score || (a.docId < b.docId ? 1 : a.docId > b.docId ? -1 : 0);

/**
 * Topic id -> document ids of a run, best first: score descending, ties by
 * document id descending (trec_eval), repeated documents keep their best rank.
 *
 * @param rows Run rows of any number of topics.
 * @returns Topic id -> ranked document ids.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rankings } from "@lib/construct/mod.ts";
 * const byTopic = rankings([
 *   { run: "r", topicId: "t", docId: "a", rank: 2, score: 1 },
 *   { run: "r", topicId: "t", docId: "b", rank: 1, score: 2 },
 * ]);
 * assert.deepEqual(byTopic.get("t"), ["b", "a"]);
 * ```
 */
export function rankings(rows: readonly RunRow[]): Map<string, string[]> {
  const byTopic = new Map<string, RunRow[]>();
  for (const r of rows) {
    let list = byTopic.get(r.topicId);
    if (!list) byTopic.set(r.topicId, list = []);
    list.push(r);
  }
  const out = new Map<string, string[]>();
  for (const [topic, list] of byTopic) {
    const seen = new Set<string>();
    out.set(
      topic,
      [...list].sort(byScore).map((r) => r.docId).filter((d) =>
        !seen.has(d) && (seen.add(d), true)
      ),
    );
  }
  return out;
}

/**
 * Run rows (rank i + 1, score n - i) for a context given as ids in rank order.
 *
 * @param run Run name of the rows.
 * @param topicId Topic of the context.
 * @param ids Passage ids, best first.
 * @returns One row per id.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contextRows } from "@lib/construct/mod.ts";
 * assert.deepEqual(contextRows("ctx", "t", ["a", "b"])[1], {
 *   run: "ctx", topicId: "t", docId: "b", rank: 2, score: 1,
 * });
 * ```
 */
export function contextRows(run: string, topicId: string, ids: readonly string[]): RunRow[] {
  return ids.map((docId, i) => ({ run, topicId, docId, rank: i + 1, score: ids.length - i }));
}
