/** Rankings of a run by topic (private). */
import type { RunRow } from "@lib/types/mod.ts";

const byScore = (a: RunRow, b: RunRow) =>
  b.score - a.score || (a.docId < b.docId ? 1 : a.docId > b.docId ? -1 : 0);

/**
 * Topic id -> document ids of a run, best first: score descending, ties by
 * document id descending (trec_eval), repeated documents keep their best rank.
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

/** Run rows (rank i + 1, score n - i) for a context given as ids in rank order. */
export function contextRows(run: string, topicId: string, ids: readonly string[]): RunRow[] {
  return ids.map((docId, i) => ({ run, topicId, docId, rank: i + 1, score: ids.length - i }));
}
