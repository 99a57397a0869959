/**
 * The evaluator: the one place that decides ordering, duplicates, which
 * topics are averaged and how (trec_eval 10.0's conventions; `complete` is
 * `trec_eval -c`).
 *
 * @module
 */
import type { MetricRow, RunRow } from "@lib/types/mod.ts";
import type { Measure } from "./measure.ts";
import type { MeasureRegistry } from "./measure_registry.ts";
import { defaultRegistry } from "./default_registry.ts";
import { type Judged, type JudgedInputs, prepareJudged } from "./judged.ts";
import { planMeasures, RunResults } from "./_plans.ts";
import { TopicView } from "./topic_view.ts";
import { groupRun, type RankOrder, rankTopic } from "./_rank_topic.ts";
import { ColumnRanker } from "./_rank_columns.ts";
import type { RunTable } from "./run_table.ts";

/** Options of {@linkcode evaluate}. */
export interface EvaluateOptions {
  /** Average over every judged topic, scoring topics missing from the run as 0 (trec_eval -c). Default false. */
  complete?: boolean;
  /** `score` (trec_eval: score desc, docid desc) or `rank` (ndeval). Default `score`. */
  order?: RankOrder;
  /**
   * Relevance level for measures whose string does not give `rel` (trec_eval -l);
   * an explicit `RPrec(rel=1)` keeps 1. Default 1 (the declared default).
   */
  rel?: number;
  /**
   * Answerability threshold for measures whose string does not give `tau` (an
   * explicit `Cov(tau=3)` keeps 3), and for qrels and subtopics derived from
   * ratings. Default 3 (the declared default).
   */
  tau?: number;
  /** Grade from which a qrels document is in P*. Default 3. */
  oracleGrade?: number;
  /** Registry for measure names. Default: the built-in measures. */
  registry?: MeasureRegistry;
  /**
   * Measure keys (as in `measures` of the result) whose per-topic values
   * `perTopic` lists; default every measure. Aggregates, counts and skipped
   * topics are unaffected: a caller printing only averages saves a row per
   * topic and measure.
   */
  perTopicMeasures?: readonly string[];
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
  /**
   * Number of topics evaluated: run ∩ judged, or every judged topic with
   * `complete`, where "judged" means in any of the judgments.
   */
  topics: number;
  /** Measure key -> mean over its averaged topics (NaN when none). */
  aggregate: Record<string, number>;
  /**
   * Measure key -> number of topics averaged: those of the evaluated topics that
   * the measure's own judgments cover (qrels for P, AP, nDCG...; ratings for
   * Cov and Den; subtopic judgments for alpha-nDCG), minus the topics it left out.
   */
  counts: Record<string, number>;
  /** Repeated documents dropped (best-ranked occurrence kept). */
  duplicates: number;
  /** Run topics without judgments (ignored, as trec_eval does). */
  unjudgedTopics: string[];
  /** Evaluated topic -> documents ranked (repeats dropped; 0 for a topic the run lacks). */
  retrieved?: Record<string, number>;
}

/** Result of {@linkcode evaluate}. */
export interface EvaluationResult {
  /**
   * Measure keys in request order, each once: `formatMeasure` with `rel`/`tau`
   * as command-wide defaults, so they show the effective parameters (with
   * `tau: 4`, `Cov@10` is keyed `Cov(tau=4)@10`, `Cov(tau=3)@10` stays as is).
   */
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

/**
 * Evaluates one or more runs (rows may mix run names) with the given measures.
 * Each measure averages over the evaluated topics its own judgments cover
 * (trec_eval's rule): a qrels measure over run ∩ qrels topics (every qrels
 * topic with `complete`, `trec_eval -c`), a CRUX measure over run ∩ rated
 * topics, alpha-nDCG over run ∩ topics with subtopic judgments. Measures that
 * print the same (`map`, `AP`) are evaluated once. A parameter written in a
 * measure string wins over `opts.tau`/`opts.rel`; the result keys show the
 * effective parameters (see {@linkcode EvaluationResult.measures}).
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
 * import assert from "node:assert/strict";
 * import { evaluate } from "@lib/metrics/mod.ts";
 * const rows = [
 *   { run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 },
 *   { run: "bm25", topicId: "q1", docId: "d2", rank: 2, score: 1.5 },
 * ];
 * const qrels = [{ topicId: "q1", docId: "d2", grade: 1 }];
 * const result = evaluate(rows, ["P@10", "nDCG@10"], { qrels });
 * assert.equal(result.runs[0].aggregate["P@10"], 0.1);
 * assert.ok(Math.abs(result.runs[0].aggregate["nDCG@10"] - 1 / Math.log2(3)) < 1e-12); // 0.6309...
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
  const plans = planMeasures(measures, registry, judged, opts);
  const result: EvaluationResult = {
    measures: plans.map((p) => p.key),
    runs: [],
    perTopic: [],
    aggregates: [],
    skipped: [],
    unparseableRatings: judged.unparseableRatings,
  };
  for (const source of runSources(run, judged, opts.order ?? "score")) {
    const topicIds = opts.complete
      ? [...judged.topicIds]
      : source.topicIds.filter((t) => judged.topics.has(t));
    const results = new RunResults(plans, opts.perTopicMeasures);
    for (const topicId of topicIds) {
      const { view, duplicates } = source.view(topicId);
      results.add(topicId, view, duplicates);
    }
    const unjudged = source.topicIds.filter((t) => !judged.topics.has(t));
    results.finish(source.name, topicIds, unjudged, result);
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
