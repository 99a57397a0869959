/**
 * Evaluation of one run read piece by piece (a large run file streamed topic by
 * topic), with the judgments in memory: memory holds the per-topic values, not
 * the run.
 *
 * @module
 */
import type { Measure } from "./measure.ts";
import type { EvaluateOptions, EvaluationResult } from "./evaluate.ts";
import type { Judged } from "./judged.ts";
import type { RunTable } from "./run_table.ts";
import { defaultRegistry } from "./default_registry.ts";
import { TopicView } from "./topic_view.ts";
import { ColumnRanker } from "./_rank_columns.ts";
import { planMeasures, type Planned, RunResults } from "./_plans.ts";

/**
 * Evaluates one run given as a sequence of {@linkcode RunTable}s, each holding
 * every row of its topics (a topic never spreads over two tables). The result
 * equals `evaluate` on the whole run: the same ordering, duplicates, topic sets
 * and aggregates (summed in topic-id order whatever order the topics came in).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepareJudged, RunEvaluator, scanRunTable } from "@lib/metrics/mod.ts";
 * const judged = prepareJudged({ qrels: [{ topicId: "q1", docId: "d2", grade: 1 }] });
 * const evaluator = new RunEvaluator(["P@10"], judged);
 * assert.equal(evaluator.add(scanRunTable("q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\n")!), undefined);
 * assert.equal(evaluator.finish().runs[0].aggregate["P@10"], 0.1);
 * ```
 */
export class RunEvaluator {
  readonly #judged: Judged;
  readonly #opts: EvaluateOptions;
  readonly #plans: Planned[];
  readonly #results: RunResults;
  /** Run topics in first-seen order. */
  readonly #seen: string[] = [];
  readonly #seenSet = new Set<string>();
  #name: string | undefined;
  /** The ranker of the tables, its arrays reused from table to table. */
  #ranker: ColumnRanker | undefined;

  /**
   * @param measures Measure strings or parsed measures.
   * @param judged Judgments from `prepareJudged`.
   * @param opts As `evaluate`'s options.
   * @throws {Error} On unknown measures, or when a measure's judgments are missing.
   */
  constructor(measures: readonly (string | Measure)[], judged: Judged, opts: EvaluateOptions = {}) {
    this.#judged = judged;
    this.#opts = opts;
    this.#plans = planMeasures(measures, opts.registry ?? defaultRegistry(), judged, opts);
    this.#results = new RunResults(this.#plans, opts.perTopicMeasures);
  }

  /** The run's name (the first table's), once a table was added. */
  get run(): string | undefined {
    return this.#name;
  }

  /** Topics added so far. */
  get topics(): number {
    return this.#seen.length;
  }

  /**
   * Evaluates the topics of one table. The table may be dropped afterwards.
   *
   * @param table Rows of whole topics.
   * @returns undefined; or, leaving everything unchanged, the id of a topic that
   *   an earlier table already held (the run is not grouped by topic).
   */
  add(table: RunTable): string | undefined {
    for (const topicId of table.topics.keys()) if (this.#seenSet.has(topicId)) return topicId;
    this.#name ??= table.run;
    const judged = this.#judged;
    const tokens = judged.tokens;
    let ranker = this.#ranker;
    if (ranker) ranker.retarget(table);
    else ranker = this.#ranker = new ColumnRanker(table, this.#opts.order ?? "score");
    for (const [topicId, cols] of table.topics) {
      this.#seen.push(topicId);
      this.#seenSet.add(topicId);
      const topic = judged.topics.get(topicId);
      if (!topic) continue;
      const ranked = ranker.rank(cols, topic.qrels);
      const view = new TopicView(topicId, ranked.docs, topic, { tokens, grades: ranked.grades });
      this.#results.add(topicId, view, ranked.duplicates);
    }
    return undefined;
  }

  /**
   * The evaluation of everything added.
   *
   * @returns As `evaluate` returns for the whole run.
   */
  finish(): EvaluationResult {
    const judged = this.#judged;
    const result: EvaluationResult = {
      measures: this.#plans.map((p) => p.key),
      runs: [],
      perTopic: [],
      aggregates: [],
      skipped: [],
      unparseableRatings: judged.unparseableRatings,
    };
    let topicIds = this.#seen.filter((t) => judged.topics.has(t));
    if (this.#opts.complete) {
      for (const topicId of judged.topicIds) {
        if (this.#results.has(topicId)) continue;
        const view = new TopicView(topicId, [], judged.topics.get(topicId), {
          tokens: judged.tokens,
        });
        this.#results.add(topicId, view, 0);
      }
      topicIds = [...judged.topicIds];
    }
    const unjudged = this.#seen.filter((t) => !judged.topics.has(t));
    this.#results.finish(this.#name ?? "", topicIds, unjudged, result);
    return result;
  }
}
