/**
 * Everything a run is evaluated against, prepared once per topic: graded
 * qrels, subtopic (diversity) qrels, and CRUX rating matrices.
 *
 * @module
 */
import type { Qrel } from "@lib/types/mod.ts";
import { QrelsTopic } from "./_qrels_topic.ts";
import { qrelsTopics } from "./_qrels_topics.ts";
import { DiversityTopic } from "./_diversity_topic.ts";
import { CruxTopic } from "./_crux_topic.ts";
import { collectRatings } from "./_collect_ratings.ts";
import type { QrelsTable } from "./qrels_table.ts";
import { CRUX_DEFAULTS } from "./crux_defaults.ts";

/** Ratings of one item (passage or report) for every sub-question of its topic, in order. */
export interface ItemRatings {
  topicId: string;
  itemId: string;
  /** 0-5 per sub-question; -1 = unparseable (counted as 0 and reported). */
  ratings: readonly number[];
}

/** Raw judgments handed to {@linkcode prepareJudged} or the evaluator. */
export interface JudgedInputs {
  /** Graded qrels (`subtopic` ignored). With judgments: CRUX qrels, P* = grade >= oracleGrade. */
  qrels?: readonly Qrel[];
  /** The same as `qrels`, scanned with `scanQrelsTable` (the fast path for large files); used when `qrels` is absent. */
  qrelsTable?: QrelsTable;
  /** Name of the file `qrelsTable` was scanned from, for error messages. Default `qrels`. */
  qrelsFile?: string;
  /** Diversity qrels: `subtopic` = subtopic id, grade >= 1 = relevant. */
  diversityQrels?: readonly Qrel[];
  /** CRUX answerability ratings. */
  judgments?: readonly ItemRatings[];
  /** Token count of an item's text; required by `Den`. */
  tokens?: (itemId: string) => number;
}

/** Options of {@linkcode prepareJudged}. */
export interface PrepareJudgedOptions {
  /** Answerability threshold used to derive qrels and subtopic qrels from ratings. Default 3. */
  tau?: number;
  /** Grade from which a qrels document belongs to the oracle set P*. Default 3 (CRUX "required"). */
  oracleGrade?: number;
}

/** Per-topic judgments of one topic. */
export interface TopicJudgments {
  topicId: string;
  qrels?: QrelsTopic;
  diversity?: DiversityTopic;
  crux?: CruxTopic;
  /**
   * The oracle set P* (what `@oracle` cutoffs count): with qrels, the documents
   * graded >= `oracleGrade` (none when the topic is not in the qrels); from
   * ratings alone, every judged passage.
   */
  oracle: readonly string[];
}

/** A topic's judgments; P* of qrels is listed on first use (most evaluations never ask). */
class TopicEntry implements TopicJudgments {
  readonly topicId: string;
  qrels?: QrelsTopic;
  diversity?: DiversityTopic;
  crux?: CruxTopic;
  #oracleGrade: number;
  #oracle?: readonly string[];

  constructor(topicId: string, oracleGrade: number) {
    this.topicId = topicId;
    this.#oracleGrade = oracleGrade;
  }

  get oracle(): readonly string[] {
    return this.#oracle ??= this.qrels?.docsGraded(this.#oracleGrade) ?? [];
  }

  set oracle(docs: readonly string[]) {
    this.#oracle = docs;
  }
}

/** Prepared judgments; build with {@linkcode prepareJudged}. */
export interface Judged {
  readonly kind: "judged";
  /** Every judged topic, in first-seen order. */
  readonly topicIds: readonly string[];
  readonly topics: ReadonlyMap<string, TopicJudgments>;
  /** Which kinds of judgments exist (directly or derived from ratings). */
  readonly has: { qrels: boolean; diversity: boolean; crux: boolean };
  /** Number of -1 ratings in the judgments. */
  readonly unparseableRatings: number;
  /** Qrels lines repeating an earlier one exactly (same topic, document and grade), dropped. */
  readonly qrelsRepeats?: number;
  readonly tokens?: (itemId: string) => number;
}

/**
 * Prepares judgments for evaluation. When only ratings are given, a passage's
 * relevance grade is 1 if any of its ratings is >= tau, the subtopic qrels
 * come from ratings >= tau (sub-questions as subtopics), and the oracle set is
 * every judged passage of the topic. With qrels, P* = documents graded >=
 * `oracleGrade`. Report items (`{topic}:report`, `{topic}:report:{run}`) are
 * never passages.
 *
 * @param inputs Qrels, diversity qrels, ratings and a token counter (all optional).
 * @param opts `tau` (default 3), `oracleGrade` (default 3).
 * @returns Prepared per-topic judgments.
 * @throws {InputError} When a qrels table lists a document twice for a topic with
 *   other grades (identical repeats are dropped and counted in `qrelsRepeats`)
 *   (`file:line: docid: document "a" is listed twice for topic "q1" (first on
 *   line 2)`, the file named by `inputs.qrelsFile`).
 * @throws {Error} When qrels records list a document twice for a topic, or a
 *   rating list's length differs from its topic's.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepareJudged } from "@lib/metrics/mod.ts";
 * const judged = prepareJudged({ qrels: [{ topicId: "q1", docId: "d1", grade: 1 }] });
 * assert.deepEqual(judged.topicIds, ["q1"]);
 * ```
 */
export function prepareJudged(inputs: JudgedInputs, opts: PrepareJudgedOptions = {}): Judged {
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const oracleGrade = opts.oracleGrade ?? CRUX_DEFAULTS.oracleGrade;
  const topics = new Map<string, TopicEntry>();
  const entry = (id: string) => {
    let t = topics.get(id);
    if (!t) topics.set(id, t = new TopicEntry(id, oracleGrade));
    return t;
  };
  const repeatCounts = { repeats: 0 };
  const qrels = qrelsTopics(
    inputs.qrels ?? inputs.qrelsTable ?? [],
    inputs.qrelsFile,
    repeatCounts,
  );
  for (const [id, topic] of qrels) entry(id).qrels = topic;
  for (const [id, div] of groupDiversity(inputs.diversityQrels ?? [])) entry(id).diversity = div;
  const ratings = collectRatings(inputs.judgments ?? []);
  const hasQrels = qrels.size > 0;
  for (const [id, topic] of ratings.topics) {
    const t = entry(id);
    const oracle = hasQrels ? t.oracle : topic.passages;
    t.crux = new CruxTopic(topic.ratings, topic.passages, oracle, topic.questions);
    if (!hasQrels) {
      t.oracle = oracle;
      const grades = topic.passages.map((p) => topic.ratings.get(p)!.some((r) => r >= tau) ? 1 : 0);
      t.qrels = QrelsTopic.of(topic.passages, grades);
    }
    if (!inputs.diversityQrels) {
      t.diversity = diversityFromRatings(topic.passages, topic.ratings, tau);
    }
  }
  const judgments = (inputs.judgments?.length ?? 0) > 0;
  return {
    kind: "judged",
    topicIds: [...topics.keys()],
    topics,
    has: {
      qrels: qrels.size > 0 || judgments,
      diversity: (inputs.diversityQrels?.length ?? 0) > 0 || judgments,
      crux: judgments,
    },
    unparseableRatings: ratings.unparseable,
    ...(repeatCounts.repeats ? { qrelsRepeats: repeatCounts.repeats } : {}),
    tokens: inputs.tokens,
  };
}

function groupDiversity(qrels: readonly Qrel[]): Map<string, DiversityTopic> {
  const byTopic = new Map<string, Map<string, Set<string>>>();
  for (const q of qrels) {
    let docs = byTopic.get(q.topicId);
    if (!docs) byTopic.set(q.topicId, docs = new Map());
    if (q.grade < 1) {
      if (!docs.has(q.docId)) docs.set(q.docId, new Set());
      continue;
    }
    let subs = docs.get(q.docId);
    if (!subs) docs.set(q.docId, subs = new Set());
    subs.add(q.subtopic ?? "0");
  }
  const out = new Map<string, DiversityTopic>();
  for (const [topic, docs] of byTopic) {
    const index = new Map<string, number>();
    const relevant = new Map<string, Int32Array>();
    for (const [doc, subs] of docs) {
      if (subs.size === 0) continue;
      const ids = [...subs].map((s) => index.get(s) ?? (index.set(s, index.size), index.size - 1));
      relevant.set(doc, Int32Array.from(ids.sort((a, b) => a - b)));
    }
    out.set(topic, new DiversityTopic(relevant, index.size));
  }
  return out;
}

function diversityFromRatings(
  passages: readonly string[],
  ratings: Map<string, Int8Array>,
  tau: number,
): DiversityTopic {
  const relevant = new Map<string, Int32Array>();
  const used = new Set<number>();
  for (const p of passages) {
    const subs: number[] = [];
    ratings.get(p)!.forEach((r, q) => r >= tau && subs.push(q));
    if (subs.length) relevant.set(p, Int32Array.from(subs));
    for (const s of subs) used.add(s);
  }
  // Renumber so that subtopics no passage is relevant to are ignored.
  const order = [...used].sort((a, b) => a - b);
  const index = new Map(order.map((s, i) => [s, i]));
  for (const [p, subs] of relevant) relevant.set(p, subs.map((s) => index.get(s)!));
  return new DiversityTopic(relevant, order.length);
}
