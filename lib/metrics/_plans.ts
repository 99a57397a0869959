/**
 * The evaluator's plan of measures and its per-topic bookkeeping, shared by
 * `evaluate` (whole runs) and `RunEvaluator` (runs read topic by topic); private
 * to `@lib/metrics`.
 */
import type { Measure, MeasureDef, MeasureNeeds, ResolvedMeasure } from "./measure.ts";
import type { MeasureRegistry } from "./measure_registry.ts";
import type { EvaluateOptions, EvaluationResult, RunSummary } from "./evaluate.ts";
import type { Judged, TopicJudgments } from "./judged.ts";
import type { TopicView } from "./topic_view.ts";
import { parseMeasure } from "./parse_measure.ts";
import { formatMeasure } from "./format_measure.ts";
import { effectiveParams } from "./_effective_params.ts";
import { compareBytes } from "./_byte_order.ts";

/** One measure as the evaluator computes it. */
export interface Planned {
  def: MeasureDef;
  /** The bit of `def.needs` (see {@linkcode coverage}). */
  needs: number;
  key: string;
  oracle: boolean;
  resolved: ResolvedMeasure;
}

const NEEDS_BIT: Record<MeasureNeeds, number> = { qrels: 1, diversity: 2, crux: 4 };

/** The kinds of judgments a topic has, as bits of `NEEDS_BIT`. */
function coverage(topic: TopicJudgments | undefined): number {
  if (!topic) return 0;
  return (topic.qrels ? 1 : 0) | (topic.diversity ? 2 : 0) | (topic.crux ? 4 : 0);
}

const NEEDS_HINT: Record<string, string> = {
  qrels: "qrels or judgments",
  diversity: "diversity qrels or judgments",
  crux: "judgments (ratings)",
};

function plan(
  m: string | Measure,
  registry: MeasureRegistry,
  judged: Judged,
  opts: EvaluateOptions,
): Planned {
  const measure = typeof m === "string" ? parseMeasure(m, { registry }) : m;
  const def = registry.require(measure.name);
  const defaults = { rel: opts.rel, tau: opts.tau };
  const key = formatMeasure(measure, { registry, defaults });
  if (!judged.has[def.needs]) {
    throw new Error(
      `Cannot evaluate ${key}: it needs ${NEEDS_HINT[def.needs]}, which were not given`,
    );
  }
  if (def.name === "Den" && !judged.tokens) {
    throw new Error(
      `Cannot evaluate ${key}: density needs token counts of the passages (a corpus)`,
    );
  }
  const params = effectiveParams(def, measure, defaults);
  const depth = typeof measure.cutoff === "number" ? measure.cutoff : Infinity;
  const oracle = measure.cutoff === "oracle";
  return { def, needs: NEEDS_BIT[def.needs], key, oracle, resolved: { key, params, depth } };
}

/** The measures planned once each (measures printing alike, `map` and `AP`, are one). */
export function planMeasures(
  measures: readonly (string | Measure)[],
  registry: MeasureRegistry,
  judged: Judged,
  opts: EvaluateOptions,
): Planned[] {
  const plans: Planned[] = [];
  for (const m of measures) {
    const p = plan(m, registry, judged, opts);
    if (!plans.some((q) => q.key === p.key)) plans.push(p);
  }
  return plans;
}

/** What one topic gave: a value per plan it covers, the reasons of those left out. */
interface TopicResult {
  values: Float64Array;
  /** 1 where `values` holds a value. */
  computed: Uint8Array;
  skipped?: Map<number, string>;
  retrieved: number;
}

/**
 * The values of one run's topics, computed in any order and summed in byte
 * order of the topic ids, so that the result does not depend on the order the
 * topics came in.
 */
export class RunResults {
  readonly #plans: Planned[];
  readonly #topics = new Map<string, TopicResult>();
  /** Repeated documents dropped so far. */
  duplicates = 0;

  constructor(plans: Planned[]) {
    this.#plans = plans;
  }

  /** Whether `topicId` was computed already. */
  has(topicId: string): boolean {
    return this.#topics.has(topicId);
  }

  /** Computes every measure on one topic's ranking. */
  add(topicId: string, view: TopicView, duplicates: number): void {
    this.duplicates += duplicates;
    const plans = this.#plans;
    const values = new Float64Array(plans.length);
    const computed = new Uint8Array(plans.length);
    const out: TopicResult = { values, computed, retrieved: view.size };
    // A measure averages over the topics its own judgments cover.
    const covered = coverage(view.judged);
    for (let i = 0; i < plans.length; i++) {
      const p = plans[i];
      if ((covered & p.needs) === 0) continue;
      let value: number | string;
      if (p.oracle && view.oracleSize === 0) value = view.missingOracle ?? "empty oracle set P*";
      else {
        const m = p.oracle ? { ...p.resolved, depth: view.oracleSize } : p.resolved;
        value = p.def.compute(view, m);
      }
      if (typeof value === "string") (out.skipped ??= new Map()).set(i, value);
      else {
        values[i] = value;
        computed[i] = 1;
      }
    }
    this.#topics.set(topicId, out);
  }

  /**
   * Adds the run's rows, aggregates and summary to `result`.
   *
   * @param name The run's name.
   * @param topicIds The evaluated topics (each added before).
   * @param unjudgedTopics Run topics without judgments.
   */
  finish(
    name: string,
    topicIds: string[],
    unjudgedTopics: string[],
    result: EvaluationResult,
  ): RunSummary {
    const plans = this.#plans;
    topicIds.sort(compareBytes);
    const sums = new Float64Array(plans.length);
    const counts = new Int32Array(plans.length);
    const retrieved: Record<string, number> = {};
    for (const topicId of topicIds) {
      const t = this.#topics.get(topicId)!;
      retrieved[topicId] = t.retrieved;
      for (let i = 0; i < plans.length; i++) {
        const reason = t.skipped?.get(i);
        if (reason !== undefined) {
          result.skipped.push({ run: name, topicId, measure: plans[i].key, reason });
          continue;
        }
        if (!t.computed[i]) continue;
        const value = t.values[i];
        sums[i] += value;
        counts[i]++;
        result.perTopic.push({ run: name, topicId, measure: plans[i].key, value });
      }
    }
    const summary: RunSummary = {
      run: name,
      topics: topicIds.length,
      aggregate: {},
      counts: {},
      duplicates: this.duplicates,
      unjudgedTopics,
      retrieved,
    };
    plans.forEach((p, i) => {
      const value = counts[i] ? sums[i] / counts[i] : NaN;
      summary.aggregate[p.key] = value;
      summary.counts[p.key] = counts[i];
      result.aggregates.push({ run: name, topicId: "all", measure: p.key, value });
    });
    result.runs.push(summary);
    return summary;
  }
}
