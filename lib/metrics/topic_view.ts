/**
 * One topic of one run as a measure sees it: the ranked, de-duplicated
 * document ids plus the topic's judgments.
 *
 * @module
 */
import type { TopicJudgments } from "./judged.ts";

/**
 * The ranking of one topic with its judgments. Built by the evaluator; the
 * relevance grade per rank is computed once and shared by all measures.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepareJudged, TopicView } from "@lib/metrics/mod.ts";
 * const judged = prepareJudged({ qrels: [{ topicId: "q1", docId: "d1", grade: 2 }] });
 * const view = new TopicView("q1", ["d2", "d1"], judged.topics.get("q1"));
 * assert.deepEqual([...view.grades()], [-Infinity, 2]); // d2 is unjudged
 * ```
 */
export class TopicView {
  readonly topicId: string;
  #docs: readonly string[] | (() => readonly string[]);
  /** Judgments of the topic (absent when the topic was not judged). */
  readonly judged: TopicJudgments | undefined;
  /** Token counter for density, when given. */
  readonly tokens?: (itemId: string) => number;
  #grades?: Float64Array;

  /**
   * @param topicId Topic id.
   * @param docs Ranked document ids, best first, without duplicates (or a
   *   function producing them on first use).
   * @param judged The topic's judgments.
   * @param opts `tokens`: token counter for density (default none); `grades`:
   *   precomputed grades per rank (default: looked up in the qrels).
   */
  constructor(
    topicId: string,
    docs: readonly string[] | (() => readonly string[]),
    judged: TopicJudgments | undefined,
    opts: { tokens?: (itemId: string) => number; grades?: Float64Array } = {},
  ) {
    this.topicId = topicId;
    this.#docs = docs;
    this.judged = judged;
    this.tokens = opts.tokens;
    this.#grades = opts.grades;
  }

  /** Ranked document ids (best first, each once). */
  get docs(): readonly string[] {
    if (typeof this.#docs === "function") this.#docs = this.#docs();
    return this.#docs;
  }

  /** Number of ranked documents (without decoding their ids when the grades are known). */
  get size(): number {
    if (typeof this.#docs === "function" && this.#grades) return this.#grades.length;
    return this.docs.length;
  }

  /**
   * Grade of the document at each rank; `-Infinity` for documents not in the
   * qrels or with a negative grade (trec_eval's "unjudged"), so they are never
   * relevant and never add gain.
   */
  grades(): Float64Array {
    if (this.#grades) return this.#grades;
    const out = new Float64Array(this.docs.length);
    const qrels = this.judged?.qrels;
    const docs = this.docs;
    for (let i = 0; i < out.length; i++) {
      const g = qrels?.gradeOf(docs[i]);
      out[i] = g === undefined || g < 0 ? -Infinity : g;
    }
    return this.#grades = out;
  }

  /** |P*| of the topic. */
  get oracleSize(): number {
    return this.judged?.oracle.length ?? 0;
  }

  /**
   * Why the topic has no oracle set P* at all (it has no qrels, e.g. it is in
   * the ratings but not in the qrels file), or undefined when it has one.
   */
  get missingOracle(): string | undefined {
    return this.judged?.qrels ? undefined : "no oracle set P* (the topic has no qrels)";
  }
}
