// Ranks a topic's run rows in trec_eval's order (score, then docid) or by rank.

import type { RunRow } from "@lib/types/mod.ts";
import { compareBytes } from "./_byte_order.ts";

/** How a topic's rows are ordered. */
export type RankOrder = "score" | "rank";

/** trec_eval order: score descending, then document id descending (byte strings). */
function byScore(a: RunRow, b: RunRow): number {
  return b.score - a.score || compareBytes(b.docId, a.docId);
}

/** ndeval order: rank ascending, then trec_eval's order. */
function byRank(a: RunRow, b: RunRow): number {
  return a.rank - b.rank || byScore(a, b);
}

/**
 * Orders one topic's rows and drops repeated documents, keeping the
 * best-ranked occurrence. Never mutates `rows`.
 */
export function rankTopic(
  rows: readonly RunRow[],
  order: RankOrder,
): { docs: string[]; duplicates: number } {
  const compare = order === "rank" ? byRank : byScore;
  // Runs are usually written in order already: check before sorting a copy.
  let ordered = true;
  for (let i = 1; i < rows.length && ordered; i++) ordered = compare(rows[i - 1], rows[i]) <= 0;
  const sorted = ordered ? rows : rows.slice().sort(compare);
  const docs: string[] = [];
  const seen = new Set<string>();
  for (const row of sorted) {
    if (seen.has(row.docId)) continue;
    seen.add(row.docId);
    docs.push(row.docId);
  }
  return { docs, duplicates: sorted.length - docs.length };
}

/** Groups rows by run, then by topic, keeping input order inside each group. */
export function groupRun(rows: readonly RunRow[]): Map<string, Map<string, RunRow[]>> {
  const runs = new Map<string, Map<string, RunRow[]>>();
  let lastRun = "";
  let lastTopic = "";
  let topics: Map<string, RunRow[]> | undefined;
  let list: RunRow[] | undefined;
  for (const row of rows) {
    if (!topics || row.run !== lastRun) {
      lastRun = row.run;
      topics = runs.get(row.run);
      if (!topics) runs.set(row.run, topics = new Map());
      list = undefined;
    }
    if (!list || row.topicId !== lastTopic) {
      lastTopic = row.topicId;
      list = topics.get(row.topicId);
      if (!list) topics.set(row.topicId, list = []);
    }
    list.push(row);
  }
  return runs;
}
