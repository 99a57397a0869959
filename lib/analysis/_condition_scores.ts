/** Per-topic scores of the compared conditions (private). */
import type { Condition, CruxData } from "./types.ts";
import { type ContextSpec, dataOracleSets, scoreDataContexts, scoreReports } from "./_scores.ts";
import { rankings } from "@lib/construct/mod.ts";
import { answerMeasureName } from "@lib/metrics/mod.ts";
import { type ContextKey, contextMeasure, contextSource } from "@lib/pipeline/mod.ts";
import type { StoredMeasure } from "@lib/store/mod.ts";

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

const CONTEXT_KEYS: ContextKey[] = ["covZ", "andcg", "denZ"];

const indexCache = new WeakMap<readonly StoredMeasure[], Map<string, StoredMeasure[]>>();

/** The stored per-topic rows of one run, source, judge and measure (topic `all` excluded). */
export function storedRows(
  data: CruxData,
  run: string,
  source: string,
  judge: string,
  measure: string,
): StoredMeasure[] {
  const all = data.measures ?? [];
  let index = indexCache.get(all);
  if (!index) {
    index = new Map();
    for (const r of all) {
      if (r.topicId === "all") continue;
      const k = [r.run, r.source, r.judge, r.measure].join("\u0000");
      index.set(k, [...(index.get(k) ?? []), r]);
    }
    indexCache.set(all, index);
  }
  return index.get([run, source, judge, measure].join("\u0000")) ?? [];
}

/**
 * The stored report values of a generation run at `tau` by the report judge,
 * named by `answerMeasureName` (`Cov` at tau 3, `Cov(tau=X)` otherwise).
 */
function storedReportRows(
  data: CruxData,
  generation: string,
  key: "covY" | "denY",
  opts: { tau: number; w: number },
): StoredMeasure[] | undefined {
  const judge = data.reportJudge!;
  // The name report judging stored, by the same function that named it.
  const name = answerMeasureName(key === "covY" ? "Cov" : "Den", opts.tau, opts.w);
  const rows = storedRows(data, generation, "report", judge, name);
  return rows.length ? rows : undefined;
}

/** Whether the measure step stored any value of a generation run's contexts at `tau`. */
function hasStoredContexts(data: CruxData, generation: string, tau: number, w: number): boolean {
  const source = contextSource("contexts", tau);
  return storedRows(
    data,
    generation,
    source,
    data.passageJudge,
    contextMeasure("covZ", "oracle", w),
  )
    .length > 0;
}

/**
 * Scores every condition on every topic: its context (the stored context ids
 * of its reports, or the top-|P*| of its run) with Cov, alpha-nDCG and Den at
 * the |P*| cutoff, and its reports with Cov(y) and Den(y). Values the measure
 * step stored (`data.measures`: sources `contexts(tau=X)` by the passage judge
 * and `report` by the report judge) are read; only a condition the steps
 * stored nothing for (data built by hand, a workspace no measure step ran on)
 * is scored here, with the measure step's own functions, and listed in
 * `computed`.
 */
export function conditionScores(
  data: CruxData,
  conditions: readonly Condition[],
  opts: { tau: number; w: number },
): ScoreRecord[] {
  return conditionScoresWithSources(data, conditions, opts).records;
}

/** {@linkcode conditionScores} with the conditions whose values were computed here. */
export function conditionScoresWithSources(
  data: CruxData,
  conditions: readonly Condition[],
  opts: { tau: number; w: number },
): { records: ScoreRecord[]; computed: string[] } {
  const dataset = new Map(data.topics.map((t) => [t.topicId, t.dataset]));
  const oracle = dataOracleSets(data);
  const contexts: ContextSpec[] = [];
  const rows: { run: string; topicId: string; measure: string; value: number }[] = [];
  const computed = new Set<string>();
  const stored = data.measures !== undefined;
  for (const c of conditions) {
    if (c.kind !== "pipeline" && c.kind !== "oracle-context") continue;
    if (stored && c.generation && hasStoredContexts(data, c.generation, opts.tau, opts.w)) {
      const source = contextSource("contexts", opts.tau);
      for (const key of CONTEXT_KEYS) {
        const measure = contextMeasure(key, "oracle", opts.w);
        for (const r of storedRows(data, c.generation, source, data.passageJudge, measure)) {
          rows.push({ run: c.name, topicId: r.topicId, measure: key, value: r.value });
        }
      }
      continue;
    }
    const stored0 = data.generations.filter((g) => g.run === c.generation && g.contextIds?.length);
    const have = new Set(stored0.map((g) => g.topicId));
    for (const g of stored0) {
      contexts.push({ name: c.name, topicId: g.topicId, ids: g.contextIds! });
    }
    if (c.run) {
      for (const [topicId, ids] of rankings(data.runs.get(c.run) ?? [])) {
        const k = oracle.get(topicId)?.length ?? 0;
        if (!have.has(topicId) && k > 0) {
          contexts.push({ name: c.name, topicId, ids: ids.slice(0, k) });
        }
      }
    }
    if (stored && contexts.some((x) => x.name === c.name)) computed.add(c.name);
  }
  rows.push(...scoreDataContexts(data, contexts, {
    keys: CONTEXT_KEYS,
    cutoff: "oracle",
    tau: opts.tau,
    w: opts.w,
  }));
  for (const c of conditions) {
    if (!c.generation || !data.reportJudge) continue;
    const cov = stored ? storedReportRows(data, c.generation, "covY", opts) : undefined;
    if (cov) {
      for (const r of cov) {
        rows.push({ run: c.name, topicId: r.topicId, measure: "covY", value: r.value });
      }
      for (const r of storedReportRows(data, c.generation, "denY", opts) ?? []) {
        rows.push({ run: c.name, topicId: r.topicId, measure: "denY", value: r.value });
      }
      continue;
    }
    const own = scoreReports(data, c.generation, c.name, opts);
    if (stored && own.length) computed.add(c.name);
    rows.push(...own);
  }
  return {
    records: rows.filter((r) => dataset.has(r.topicId)).map((r) => ({
      condition: r.run,
      dataset: dataset.get(r.topicId)!,
      topicId: r.topicId,
      measure: r.measure,
      value: r.value,
    })),
    computed: [...computed],
  };
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
