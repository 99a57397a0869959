// The dataset statistics table: topics, documents, passages, sub-questions and ratings per topic.

import type { Document, Passage, Qrel, Question, Topic } from "@lib/types/mod.ts";

/** One row of the dataset statistics table (means are per topic unless said otherwise). */
export interface DatasetStatsRow {
  /** Dataset name (`Topic.source`, `unknown` when absent) or `all`. */
  dataset: string;
  topics: number;
  documentsPerTopic: number;
  passagesPerTopic: number;
  /** Mean tokens per passage (over passages with a token count). */
  tokensPerPassage: number;
  subquestionsPerTopic: number;
  /** Mean number of answerable sub-questions (`Question.answerable`). */
  answerablePerTopic: number;
  /** Mean |P*| (required passages, qrel grade 3). */
  requiredPerTopic: number;
  /** Mean total tokens of P*. */
  requiredTokensPerTopic: number;
}

/** The workspace content {@link datasetStats} summarises. */
export interface DatasetStatsInput {
  topics: readonly Topic[];
  documents: readonly Document[];
  passages: readonly Passage[];
  /** Questions of any kind; only `subquestion` ones are counted. */
  questions: readonly Question[];
  /** CRUX passage qrels; grade 3 marks P*. Diversity qrels are ignored. */
  qrels: readonly Qrel[];
}

/**
 * Builds a statistics table like the CRUX paper's dataset table: per dataset
 * (topic source), the number of topics and per-topic means of documents,
 * passages, sub-questions, answerable sub-questions, |P*| and tokens of P*, plus
 * mean tokens per passage. When qrels are given, only topics with at least one
 * required passage (the topics kept by selection) are counted. With more than
 * one dataset a final `all` row covers every counted topic. Returns data; the
 * report area renders it.
 *
 * @param input Topics, documents, passages, questions and qrels.
 * @returns One row per dataset in first-seen order, then `all` if needed.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { datasetStats } from "@lib/construct/mod.ts";
 * const rows = datasetStats({
 *   topics: [{ topicId: "t1", request: "Report on the flood.", source: "sample" }],
 *   documents: [{ topicId: "t1", docId: "d1", docIndex: 0, text: "Rain fell. Rivers rose." }],
 *   passages: [
 *     { passageId: "t1:0#0", topicId: "t1", docId: "d1", text: "Rain fell.", tokens: 3 },
 *     { passageId: "t1:0#1", topicId: "t1", docId: "d1", text: "Rivers rose.", tokens: 3 },
 *   ],
 *   questions: [
 *     { topicId: "t1", questionId: "t1#q0", kind: "subquestion", ordinal: 0, text: "Why?" },
 *   ],
 *   qrels: [{ topicId: "t1", docId: "t1:0#1", grade: 3 }],
 * });
 * assert.equal(rows[0].passagesPerTopic, 2);
 * assert.equal(rows[0].requiredPerTopic, 1);
 * ```
 */
export function datasetStats(input: DatasetStatsInput): DatasetStatsRow[] {
  const tokens = new Map(input.passages.map((p) => [p.passageId, p.tokens]));
  const required = new Map<string, Set<string>>();
  for (const q of input.qrels) {
    if (q.grade !== 3 || (q.subtopic !== undefined && q.subtopic !== "0")) continue;
    let s = required.get(q.topicId);
    if (!s) required.set(q.topicId, s = new Set());
    s.add(q.docId);
  }
  const counted = input.topics.filter((t) => required.size === 0 || required.has(t.topicId));
  const groups = new Map<string, Set<string>>();
  for (const t of counted) {
    const name = t.source ?? "unknown";
    let s = groups.get(name);
    if (!s) groups.set(name, s = new Set());
    s.add(t.topicId);
  }
  if (groups.size > 1) groups.set("all", new Set(counted.map((t) => t.topicId)));
  return [...groups].map(([dataset, ids]) => {
    const n = ids.size;
    const per = (count: number) => (n === 0 ? 0 : count / n);
    const passages = input.passages.filter((p) => ids.has(p.topicId));
    const withTokens = passages.filter((p) => typeof p.tokens === "number");
    const subq = input.questions.filter((q) => q.kind === "subquestion" && ids.has(q.topicId));
    let requiredCount = 0;
    let requiredTokens = 0;
    for (const id of ids) {
      for (const pid of required.get(id) ?? []) {
        requiredCount++;
        requiredTokens += tokens.get(pid) ?? 0;
      }
    }
    return {
      dataset,
      topics: n,
      documentsPerTopic: per(input.documents.filter((d) => ids.has(d.topicId)).length),
      passagesPerTopic: per(passages.length),
      tokensPerPassage: withTokens.length === 0
        ? 0
        : withTokens.reduce((a, p) => a + (p.tokens as number), 0) / withTokens.length,
      subquestionsPerTopic: per(subq.length),
      answerablePerTopic: per(subq.filter((q) => q.answerable === true).length),
      requiredPerTopic: per(requiredCount),
      requiredTokensPerTopic: per(requiredTokens),
    };
  });
}
