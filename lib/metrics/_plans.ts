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

/**
 * The values of one run's topics, computed in any order and summed in byte
 * order of the topic ids, so that the result does not depend on the order the
 * topics came in. Values live in flat typed arrays (one slot per topic and
 * measure) rather than in objects per topic, which keeps the garbage collector
 * out of long runs.
 */
export class RunResults {
  readonly #plans: Planned[];
  /** Topic id -> its slot (values of slot s at `s * plans.length`). */
  readonly #slots = new Map<string, number>();
  #values = new Float64Array(0);
  /** 1 where `#values` holds a value. */
  #computed = new Uint8Array(0);
  #retrieved = new Int32Array(0);
  /** Reasons of the values left out, by value index. */
  #skipped: Map<number, string> | undefined;
  /** Per plan: whether `finish` lists its per-topic values. */
  readonly #listed: boolean[];
  /** Repeated documents dropped so far. */
  duplicates = 0;

  /**
   * @param plans The measures.
   * @param listed Keys of the measures whose per-topic rows `finish` adds (default all).
   */
  constructor(plans: Planned[], listed?: readonly string[]) {
    this.#plans = plans;
    this.#listed = plans.map((p) => !listed || listed.includes(p.key));
  }

  /** Whether `topicId` was computed already. */
  has(topicId: string): boolean {
    return this.#slots.has(topicId);
  }

  /** Computes every measure on one topic's ranking. */
  add(topicId: string, view: TopicView, duplicates: number): void {
    this.duplicates += duplicates;
    const plans = this.#plans;
    const width = plans.length;
    const slot = this.#slots.size;
    if ((slot + 1) > this.#retrieved.length) this.#grow(Math.max(64, 2 * (slot + 1)));
    this.#slots.set(topicId, slot);
    const values = this.#values;
    const computed = this.#computed;
    this.#retrieved[slot] = view.size;
    const base = slot * width;
    // A measure averages over the topics its own judgments cover.
    const covered = coverage(view.judged);
    for (let i = 0; i < width; i++) {
      const p = plans[i];
      if ((covered & p.needs) === 0) continue;
      let value: number | string;
      if (p.oracle && view.oracleSize === 0) value = view.missingOracle ?? "empty oracle set P*";
      else {
        const m = p.oracle ? { ...p.resolved, depth: view.oracleSize } : p.resolved;
        value = p.def.compute(view, m);
      }
      if (typeof value === "string") (this.#skipped ??= new Map()).set(base + i, value);
      else {
        values[base + i] = value;
        computed[base + i] = 1;
      }
    }
  }

  /** Room for `topics` topics. */
  #grow(topics: number): void {
    const width = this.#plans.length;
    const values = new Float64Array(topics * width);
    values.set(this.#values);
    const computed = new Uint8Array(topics * width);
    computed.set(this.#computed);
    const retrieved = new Int32Array(topics);
    retrieved.set(this.#retrieved);
    this.#values = values;
    this.#computed = computed;
    this.#retrieved = retrieved;
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
    const values = this.#values;
    const computed = this.#computed;
    const skipped = this.#skipped;
    const width = plans.length;
    const listed = this.#listed;
    for (const topicId of topicIds) {
      const slot = this.#slots.get(topicId)!;
      retrieved[topicId] = this.#retrieved[slot];
      const base = slot * width;
      for (let i = 0; i < width; i++) {
        const reason = skipped?.get(base + i);
        if (reason !== undefined) {
          result.skipped.push({ run: name, topicId, measure: plans[i].key, reason });
          continue;
        }
        if (!computed[base + i]) continue;
        const value = values[base + i];
        sums[i] += value;
        counts[i]++;
        if (listed[i]) result.perTopic.push({ run: name, topicId, measure: plans[i].key, value });
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
