/** Per-topic scores of the compared conditions (private). */
import type { Condition, CruxData } from "./types.ts";
import { answerableSets } from "./_scores.ts";
import { answerMeasureName } from "@lib/metrics/mod.ts";
import { type ContextKey, contextMeasure, contextSource } from "@lib/pipeline/mod.ts";
import { meanTopicId, type StoredMeasure } from "@lib/store/mod.ts";

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
      if (meanTopicId.is(r.topicId)) continue;
      const k = [r.run, r.source, r.judge, r.measure].join("\u0000");
      index.set(k, [...(index.get(k) ?? []), r]);
    }
    indexCache.set(all, index);
  }
  return index.get([run, source, judge, measure].join("\u0000")) ?? [];
}

/** Where one measure of one condition is stored: run, source, judge and measure name. */
export interface StoredKey {
  run: string;
  source: string;
  judge: string;
  measure: string;
}

/**
 * The stored mean of a key, or undefined: the run's (topic `all`), or with
 * `topicId` `all:<dataset>` one dataset's (stored beside it when the
 * experiment holds several).
 */
export function storedMean(
  data: CruxData,
  key: StoredKey,
  topicId = "all",
): StoredMeasure | undefined {
  const all = data.measures ?? [];
  let index = meanCache.get(all);
  if (!index) {
    index = new Map();
    for (const r of all) {
      if (meanTopicId.is(r.topicId)) {
        index.set([r.run, r.source, r.judge, r.measure, r.topicId].join("\u0000"), r);
      }
    }
    meanCache.set(all, index);
  }
  return index.get([key.run, key.source, key.judge, key.measure, topicId].join("\u0000"));
}

const meanCache = new WeakMap<readonly StoredMeasure[], Map<string, StoredMeasure>>();

/**
 * The stored report key of a generation run at `tau` by the report judge,
 * named by `answerMeasureName`, the function report judging names its values
 * with (`Cov` at tau 3, `Cov(tau=X)` otherwise).
 */
function reportKey(
  data: CruxData,
  generation: string,
  key: "covY" | "denY",
  opts: { tau: number; w: number },
): StoredKey {
  const judge = data.reportJudge!;
  const measure = answerMeasureName(key === "covY" ? "Cov" : "Den", opts.tau, opts.w);
  return { run: generation, source: "report", judge, measure };
}

/** The stored key of a main measure of a condition, or the reason it has none. */
function conditionKey(
  data: CruxData,
  c: Condition,
  key: string,
  opts: { tau: number; w: number },
): StoredKey | string {
  if (!c.generation) return "no generation run";
  const failed = allReportsFailed(data, c.generation);
  if (failed) return failed;
  if (key === "covY" || key === "denY") {
    if (!data.reportJudge) return "no report was judged";
    return reportKey(data, c.generation, key, opts);
  }
  return {
    run: c.generation,
    source: contextSource("contexts", opts.tau),
    judge: data.passageJudge,
    measure: contextMeasure(key as ContextKey, "oracle", opts.w),
  };
}

/**
 * The reason a generation run has no value at all when its every report failed
 * (`all 3 reports failed; re-run to retry`), else undefined.
 */
export function allReportsFailed(data: CruxData, generation: string): string | undefined {
  const failed = data.failedReports?.get(generation);
  if (!failed?.topics.length || data.generations.some((g) => g.run === generation)) {
    return undefined;
  }
  const n = failed.topics.length;
  return `all ${n} report${n === 1 ? "" : "s"} failed; re-run to retry`;
}

/** Whether a main measure applies to a condition (contexts: pipelines and P*; reports: all with reports). */
export function appliesTo(c: Condition, measure: string): boolean {
  return CONTEXT_KEYS.includes(measure as ContextKey)
    ? c.kind === "pipeline" || c.kind === "oracle-context"
    : c.generation !== undefined;
}

/** Per-topic rows, means and the reasons of absent means of the compared conditions. */
export interface ConditionValues {
  /** The stored per-topic values. */
  records: ScoreRecord[];
  /**
   * Means by {@linkcode meanKey}: the stored run mean (topic `all`), which the
   * measure step keeps only when every topic of the run's topic set has a value;
   * with several datasets, each dataset's stored mean (topic `all:<dataset>`),
   * which the measure step stores beside a complete run mean.
   */
  means: Map<
    string,
    { value: number; topics: number; key: StoredKey; topicId: string; topicSet?: string }
  >;
  /** Why a mean is absent, by {@linkcode meanKey} (measures that apply to the condition). */
  missing: Map<string, string>;
  /** Where each condition's measure is stored, by `meanKey("", condition, measure)`. */
  keys: Map<string, StoredKey>;
}

/**
 * The values of every condition on every topic, read from the measure table:
 * its context (source `contexts(tau=X)` by the passage judge: Cov, alpha-nDCG
 * and Den at the |P*| cutoff) and its reports (source `report` by the report
 * judge: Cov(y), Den(y)). Nothing is scored here: a value the measure step did
 * not store is absent, and an absent mean comes with its reason (the topics
 * without a value and why).
 */
export function conditionValues(
  data: CruxData,
  conditions: readonly Condition[],
  opts: { tau: number; w: number },
): ConditionValues {
  const dataset = new Map(data.topics.map((t) => [t.topicId, t.dataset]));
  const datasets = datasetsOf(data);
  const records: ScoreRecord[] = [];
  const means: ConditionValues["means"] = new Map();
  const missing = new Map<string, string>();
  const keys = new Map<string, StoredKey>();
  let answerable: Map<string, string[]> | undefined;
  for (const c of conditions) {
    for (const m of MAIN_MEASURES) {
      if (!appliesTo(c, m)) continue;
      const key = conditionKey(data, c, m, opts);
      if (typeof key !== "string") keys.set(meanKey("", c.name, m), key);
      const rows = typeof key === "string"
        ? []
        : storedRows(data, key.run, key.source, key.judge, key.measure)
          .filter((r) => dataset.has(r.topicId));
      for (const r of rows) {
        records.push({
          condition: c.name,
          dataset: dataset.get(r.topicId)!,
          topicId: r.topicId,
          measure: m,
          value: r.value,
        });
      }
      const runMean = typeof key === "string" ? undefined : storedMean(data, key);
      for (const d of datasets) {
        const k = meanKey(d, c.name, m);
        // One dataset of several: its own stored mean, beside the run mean.
        const topicId = datasets.length === 1 ? "all" : meanTopicId.of(d);
        const mean = typeof key === "string" ? undefined : storedMean(data, key, topicId);
        if (mean && typeof key !== "string") {
          means.set(k, {
            value: mean.value,
            topics: mean.topics ?? rows.filter((r) => dataset.get(r.topicId) === d).length,
            key,
            topicId,
            ...(mean.topicSet ? { topicSet: mean.topicSet } : {}),
          });
          continue;
        }
        if (runMean && typeof key !== "string") {
          missing.set(
            k,
            rows.some((r) => dataset.get(r.topicId) === d)
              ? `no mean of dataset ${d} stored beside the run mean (re-run the measure stages to store it)`
              : `no topic of dataset ${d} has a value`,
          );
          continue;
        }
        if (typeof key === "string") {
          missing.set(k, key);
          continue;
        }
        if (data.measures === undefined) {
          missing.set(k, "the measure step stored nothing in this workspace");
          continue;
        }
        answerable ??= answerableSets(data, opts.tau);
        const have = new Set(rows.map((r) => r.topicId));
        const lacking = data.topics.filter((t) =>
          t.dataset === d && !have.has(t.topicId) && (answerable!.get(t.topicId)?.length ?? 0) > 0
        ).map((t) => t.topicId);
        missing.set(k, lackingReason(data, c, m, lacking, rows.length));
      }
    }
  }
  return { records, means, missing, keys };
}

/** Why a condition has no stored mean of a measure: its topics without a value, by cause. */
function lackingReason(
  data: CruxData,
  c: Condition,
  measure: string,
  lacking: readonly string[],
  stored: number,
): string {
  if (!lacking.length) {
    return stored ? "no mean stored (the run's topic set is incomplete)" : "not measured";
  }
  const list = (ids: readonly string[]) =>
    `${ids.length > 1 ? "topics" : "topic"} ${ids.slice(0, 5).join(", ")}${
      ids.length > 5 ? `, ... (${ids.length})` : ""
    }`;
  if (measure !== "covY" && measure !== "denY") {
    if (!stored) return "not stored by the measure step";
    return `no value for ${list(lacking)}: passage ratings or selection incomplete`;
  }
  const reports = new Map(
    data.generations.filter((g) => g.run === c.generation).map((g) => [g.topicId, g]),
  );
  const noReport = lacking.filter((t) => !reports.has(t));
  const unrated = lacking.filter((t) => reports.has(t));
  const parts = [
    noReport.length ? `no report for ${list(noReport)}` : "",
    unrated.length ? `ratings of the report failed or are missing for ${list(unrated)}` : "",
  ].filter(Boolean);
  return `${parts.join("; ")}; re-run to retry`;
}

/** The stored per-topic values of the conditions (see {@linkcode conditionValues}). */
export function conditionScores(
  data: CruxData,
  conditions: readonly Condition[],
  opts: { tau: number; w: number },
): ScoreRecord[] {
  return conditionValues(data, conditions, opts).records;
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
