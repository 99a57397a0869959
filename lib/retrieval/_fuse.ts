/** Helpers shared by the run fusion functions. */
import type { RunRow } from "../types/records.ts";

/** trec_eval order: score descending, then document id descending. */
export function trecOrder(
  a: { score: number; docId: string },
  b: { score: number; docId: string },
) {
  return b.score - a.score || (a.docId < b.docId ? 1 : a.docId > b.docId ? -1 : 0);
}

/** Rows of one run grouped by topic, each group in trec_eval order (input untouched). */
export function byTopic(run: readonly RunRow[]): Map<string, RunRow[]> {
  const groups = new Map<string, RunRow[]>();
  for (const row of run) {
    let g = groups.get(row.topicId);
    if (!g) groups.set(row.topicId, g = []);
    g.push(row);
  }
  for (const g of groups.values()) g.sort(trecOrder);
  return groups;
}

/** Turns per-topic fused scores into ranked rows (trec_eval order). */
export function toRows(fused: Map<string, Map<string, number>>, run: string): RunRow[] {
  const out: RunRow[] = [];
  for (const [topicId, scores] of fused) {
    const rows = [...scores].map(([docId, score]) => ({ run, topicId, docId, rank: 0, score }));
    rows.sort(trecOrder).forEach((r, i) => (r.rank = i + 1));
    out.push(...rows);
  }
  return out;
}

/** Normalisations of a run's scores within a topic. */
export type ScoreNormalization = "none" | "minmax" | "sum" | "zscore";

/** Normalises the scores of one topic's rows. */
export function normalize(scores: number[], how: ScoreNormalization): number[] {
  if (how === "none" || scores.length === 0) return scores.slice();
  if (how === "minmax") {
    const min = Math.min(...scores);
    const max = Math.max(...scores);
    return scores.map((s) => (max === min ? 1 : (s - min) / (max - min)));
  }
  if (how === "sum") {
    const sum = scores.reduce((a, b) => a + b, 0);
    return scores.map((s) => (sum === 0 ? 0 : s / sum));
  }
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const sd = Math.sqrt(scores.reduce((a, s) => a + (s - mean) ** 2, 0) / scores.length);
  return scores.map((s) => (sd === 0 ? 0 : (s - mean) / sd));
}
