/** Per-topic scores of the compared conditions (private). */
import type { Condition, CruxData } from "./types.ts";
import { type ContextSpec, oracleSets, scoreContexts, scoreReports } from "./_scores.ts";
import { rankings } from "@lib/construct/mod.ts";

/** One per-topic value of one condition. */
export interface ScoreRecord {
  condition: string;
  dataset: string;
  topicId: string;
  /** `covZ`, `andcg`, `denZ` (context at top-|P*|) or `covY`, `denY` (report). */
  measure: string;
  value: number;
}

/** The measures of the main comparison, in table order. */
export const MAIN_MEASURES = ["covZ", "andcg", "covY", "denZ", "denY"] as const;

/**
 * Scores every condition on every topic: its context (the stored context ids
 * of its reports, or the top-|P*| of its run) with Cov, alpha-nDCG and Den at
 * the |P*| cutoff, and its reports with Cov(y) and Den(y).
 */
export function conditionScores(
  data: CruxData,
  conditions: readonly Condition[],
  opts: { tau: number; w: number },
): ScoreRecord[] {
  const dataset = new Map(data.topics.map((t) => [t.topicId, t.dataset]));
  const oracle = oracleSets(data);
  const contexts: ContextSpec[] = [];
  for (const c of conditions) {
    if (c.kind !== "pipeline" && c.kind !== "oracle-context") continue;
    const stored = data.generations.filter((g) => g.run === c.generation && g.contextIds?.length);
    const have = new Set(stored.map((g) => g.topicId));
    for (const g of stored) contexts.push({ name: c.name, topicId: g.topicId, ids: g.contextIds! });
    if (c.run) {
      for (const [topicId, ids] of rankings(data.runs.get(c.run) ?? [])) {
        const k = oracle.get(topicId)?.length ?? 0;
        if (!have.has(topicId) && k > 0) {
          contexts.push({ name: c.name, topicId, ids: ids.slice(0, k) });
        }
      }
    }
  }
  const rows = scoreContexts(data, contexts, {
    keys: ["covZ", "andcg", "denZ"],
    cutoff: "oracle",
    tau: opts.tau,
    w: opts.w,
  });
  for (const c of conditions) {
    if (c.generation && data.reportJudge) {
      rows.push(...scoreReports(data, c.generation, c.name, opts));
    }
  }
  return rows.filter((r) => dataset.has(r.topicId)).map((r) => ({
    condition: r.run,
    dataset: dataset.get(r.topicId)!,
    topicId: r.topicId,
    measure: r.measure,
    value: r.value,
  }));
}

/** Datasets of the data, in first-seen topic order. */
export function datasetsOf(data: CruxData): string[] {
  return [...new Set(data.topics.map((t) => t.dataset))];
}

/** Mean per (dataset, condition, measure) and the number of topics averaged. */
export function meanScores(
  records: readonly ScoreRecord[],
): Map<string, { value: number; topics: number }> {
  const acc = new Map<string, { sum: number; n: number }>();
  for (const r of records) {
    const key = meanKey(r.dataset, r.condition, r.measure);
    const a = acc.get(key) ?? { sum: 0, n: 0 };
    acc.set(key, { sum: a.sum + r.value, n: a.n + 1 });
  }
  return new Map([...acc].map(([k, a]) => [k, { value: a.sum / a.n, topics: a.n }]));
}

/** Key of {@linkcode meanScores}' map. */
export const meanKey = (dataset: string, condition: string, measure: string): string =>
  `${dataset}\u0000${condition}\u0000${measure}`;
