/**
 * The evaluator: the one place that decides ordering, duplicates, which
 * topics are averaged and how (METRICS.md conventions, i.e. trec_eval's).
 *
 * @module
 */
import type { MetricRow, RunRow } from "@lib/types/mod.ts";
import type { Measure, MeasureDef, ResolvedMeasure } from "./measure.ts";
import type { MeasureRegistry } from "./measure_registry.ts";
import { defaultRegistry } from "./default_registry.ts";
import { parseMeasure } from "./parse_measure.ts";
import { formatMeasure } from "./format_measure.ts";
import { type Judged, type JudgedInputs, prepareJudged } from "./judged.ts";
import { TopicView } from "./topic_view.ts";
import { groupRun, type RankOrder, rankTopic } from "./_rank_topic.ts";
import { ColumnRanker } from "./_rank_columns.ts";
import type { RunTable } from "./run_table.ts";
import { compareBytes } from "./_byte_order.ts";

/** Options of {@linkcode evaluate}. */
export interface EvaluateOptions {
  /** Average over every judged topic, scoring topics missing from the run as 0 (trec_eval -c). Default false. */
  complete?: boolean;
  /** `score` (trec_eval: score desc, docid desc) or `rank` (ndeval). Default `score`. */
  order?: RankOrder;
  /** Relevance level for measures whose `rel` is not given explicitly (trec_eval -l). Default 1. */
  rel?: number;
  /** Answerability threshold for measures whose `tau` is not explicit, and for derived qrels. Default 3. */
  tau?: number;
  /** Grade from which a qrels document is in P*. Default 3. */
  oracleGrade?: number;
  /** Registry for measure names. Default: the built-in measures. */
  registry?: MeasureRegistry;
}

/** A topic left out of one measure's average, with the reason. */
export interface SkippedTopic {
  run: string;
  topicId: string;
  measure: string;
  reason: string;
}

/** Evaluation summary of one run. */
export interface RunSummary {
  run: string;
  /** Number of topics evaluated (run ∩ judged, or every judged topic with `complete`). */
  topics: number;
  /** Measure key -> mean over its averaged topics (NaN when none). */
  aggregate: Record<string, number>;
  /** Measure key -> number of topics averaged. */
  counts: Record<string, number>;
  /** Repeated documents dropped (best-ranked occurrence kept). */
  duplicates: number;
  /** Run topics without judgments (ignored, as trec_eval does). */
  unjudgedTopics: string[];
}

/** Result of {@linkcode evaluate}. */
export interface EvaluationResult {
  /** Canonical measure keys, in request order. */
  measures: string[];
  runs: RunSummary[];
  /** One row per run, topic and measure. */
  perTopic: MetricRow[];
  /** One row per run and measure, `topicId` = `all`. */
  aggregates: MetricRow[];
  /** Topics left out of some measure's average (e.g. |A| = 0). */
  skipped: SkippedTopic[];
  /** -1 ratings in the judgments (counted as 0). */
  unparseableRatings: number;
}

interface Planned {
  def: MeasureDef;
  key: string;
  oracle: boolean;
  resolved: ResolvedMeasure;
}

/**
 * Evaluates one or more runs (rows may mix run names) with the given measures.
 *
 * @param run Run rows (possibly of several runs), or one run as a {@linkcode RunTable}
 *   (the fast path for large files); ordering follows `opts.order`, duplicates are
 *   dropped and counted.
 * @param measures Measure strings or parsed measures (`"nDCG@10"`, `"Cov@oracle"`).
 * @param inputs Raw judgments ({@linkcode JudgedInputs}) or ones from {@linkcode prepareJudged}.
 * @param opts See {@linkcode EvaluateOptions}; defaults: score order, run ∩ judged topics, rel 1, tau 3.
 * @returns Per-topic rows, aggregates, per-run summaries and diagnostics.
 * @throws {Error} On unknown measures, or when a measure's judgments are missing.
 * @example
 * ```ts
 * import { evaluate } from "@lib/metrics/mod.ts";
 * const rows = [
 *   { run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 },
 *   { run: "bm25", topicId: "q1", docId: "d2", rank: 2, score: 1.5 },
 * ];
 * const qrels = [{ topicId: "q1", docId: "d2", grade: 1 }];
 * const result = evaluate(rows, ["P@10", "nDCG@10"], { qrels });
 * result.runs[0].aggregate["P@10"]; // 0.1
 * result.runs[0].aggregate["nDCG@10"]; // 1 / log2(3) = 0.6309...
 * ```
 */
export function evaluate(
  run: readonly RunRow[] | RunTable,
  measures: readonly (string | Measure)[],
  inputs: JudgedInputs | Judged,
  opts: EvaluateOptions = {},
): EvaluationResult {
  const registry = opts.registry ?? defaultRegistry();
  const judged = "kind" in inputs && inputs.kind === "judged"
    ? inputs as Judged
    : prepareJudged(inputs as JudgedInputs, { tau: opts.tau, oracleGrade: opts.oracleGrade });
  const plans = measures.map((m) => plan(m, registry, judged, opts));
  const keys = plans.map((p) => p.key);
  const result: EvaluationResult = {
    measures: keys,
    runs: [],
    perTopic: [],
    aggregates: [],
    skipped: [],
    unparseableRatings: judged.unparseableRatings,
  };
  for (const source of runSources(run, judged, opts.order ?? "score")) {
    const name = source.name;
    const topicIds = opts.complete
      ? [...judged.topicIds]
      : source.topicIds.filter((t) => judged.topics.has(t));
    topicIds.sort(compareBytes);
    const sums = new Float64Array(plans.length);
    const counts = new Int32Array(plans.length);
    let duplicates = 0;
    for (const topicId of topicIds) {
      const { view, duplicates: dropped } = source.view(topicId);
      duplicates += dropped;
      for (let i = 0; i < plans.length; i++) {
        const p = plans[i];
        let value: number | string;
        if (p.oracle && view.oracleSize === 0) value = "empty oracle set P*";
        else {
          const m = p.oracle ? { ...p.resolved, depth: view.oracleSize } : p.resolved;
          value = p.def.compute(view, m);
        }
        if (typeof value === "string") {
          result.skipped.push({ run: name, topicId, measure: p.key, reason: value });
          continue;
        }
        sums[i] += value;
        counts[i]++;
        result.perTopic.push({ run: name, topicId, measure: p.key, value });
      }
    }
    const summary: RunSummary = {
      run: name,
      topics: topicIds.length,
      aggregate: {},
      counts: {},
      duplicates,
      unjudgedTopics: source.topicIds.filter((t) => !judged.topics.has(t)),
    };
    plans.forEach((p, i) => {
      const value = counts[i] ? sums[i] / counts[i] : NaN;
      summary.aggregate[p.key] = value;
      summary.counts[p.key] = counts[i];
      result.aggregates.push({ run: name, topicId: "all", measure: p.key, value });
    });
    result.runs.push(summary);
  }
  return result;
}

/** One run to evaluate: its topics and a way to rank one of them. */
interface RunSource {
  name: string;
  topicIds: string[];
  view(topicId: string): { view: TopicView; duplicates: number };
}

/** Splits the input into runs: rows grouped by run name, or one run table. */
function runSources(
  run: readonly RunRow[] | RunTable,
  judged: Judged,
  order: RankOrder,
): RunSource[] {
  const tokens = judged.tokens;
  if ("kind" in run && run.kind === "run-table") {
    const table = run as RunTable;
    const ranker = new ColumnRanker(table, order);
    return [{
      name: table.run,
      topicIds: [...table.topics.keys()],
      view(topicId) {
        const topic = judged.topics.get(topicId);
        const cols = table.topics.get(topicId);
        if (!cols) return { view: new TopicView(topicId, [], topic, { tokens }), duplicates: 0 };
        const ranked = ranker.rank(cols, topic?.qrels);
        const view = new TopicView(topicId, ranked.docs, topic, { tokens, grades: ranked.grades });
        return { view, duplicates: ranked.duplicates };
      },
    }];
  }
  return [...groupRun(run as readonly RunRow[])].map(([name, topicRows]) => ({
    name,
    topicIds: [...topicRows.keys()],
    view(topicId) {
      const ranked = rankTopic(topicRows.get(topicId) ?? [], order);
      const view = new TopicView(topicId, ranked.docs, judged.topics.get(topicId), { tokens });
      return { view, duplicates: ranked.duplicates };
    },
  }));
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
  const key = formatMeasure(measure, { registry });
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
  const params: Record<string, number | boolean> = {};
  for (const [name, spec] of Object.entries(def.params)) {
    const global = name === "rel" ? opts.rel : name === "tau" ? opts.tau : undefined;
    params[name] = measure.params[name] ?? global ?? spec.default;
  }
  const depth = typeof measure.cutoff === "number" ? measure.cutoff : Infinity;
  return { def, key, oracle: measure.cutoff === "oracle", resolved: { key, params, depth } };
}
