// Selection of one topic: its rating matrix in, its required passages and qrels grades out.

import type { Qrel } from "@lib/types/mod.ts";
import {
  answerableQuestions,
  CRUX_DEFAULTS,
  requiredSubset,
  type RequiredSubsetOptions,
} from "@lib/metrics/mod.ts";

/** One topic's rating matrix, rows = passages in passage order, columns = sub-questions in order. */
export interface SelectionMatrix {
  topicId: string;
  passageIds: readonly string[];
  /** `ratings[i][k]` = G(passage i, question k + 1), 0-5; -1 (unparseable) counts as 0. */
  ratings: readonly (readonly number[])[];
}

/** The outcome of selection for one topic. */
export interface TopicSelection {
  topicId: string;
  /** `answerable[k]`: some passage rates question k + 1 at >= tau. */
  answerable: boolean[];
  /** The required subset P* in the order it was chosen. */
  kept: string[];
  /** Passage qrels: 3 required, 2 neutral, 1 redundant (empty when the topic is dropped). */
  qrels: Qrel[];
  /** Diversity qrels: every passage x sub-question (numbered from 1), grade 1 if G >= tau else 0. */
  divQrels: Qrel[];
  /** True when nothing was kept: the topic leaves the dataset. */
  dropped: boolean;
}

/**
 * CRUX selection for one topic: answerability filtering at tau and the greedy
 * required subset (CRUX, Ju et al., 2025), producing the passage qrels
 * (grades 3/2/1) and the diversity qrels (sub-questions numbered from 1), using
 * `requiredSubset` of `@lib/metrics` for the greedy choice. A
 * topic where nothing is kept is marked `dropped` and gets no qrels.
 *
 * @param matrix Passage ids and their ratings in passage order.
 * @param opts `tau`: rating at which a passage answers a question (default 3);
 *   `redundancy`: `all` (default, the original rule) or `answerable` (see `requiredSubset`).
 * @returns Answerable mask, kept passages and qrels.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const s = selectTopic({ topicId: "t", passageIds: ["t:0#0", "t:0#1"], ratings: [[5, 0], [4, 3]] });
 * assert.deepEqual(s.kept, ["t:0#1"]); // it answers both questions
 * ```
 */
export function selectTopic(
  matrix: SelectionMatrix,
  opts: RequiredSubsetOptions = {},
): TopicSelection {
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const { topicId, passageIds } = matrix;
  const ratings = matrix.ratings.map((row) => row.map((r) => (r < 0 ? 0 : r)));
  const nq = ratings[0]?.length ?? 0;
  const answerable = answerableQuestions(ratings, nq, { tau });
  const chosen = requiredSubset(
    passageIds.map((itemId, i) => ({ topicId, itemId, ratings: ratings[i] })),
    { tau, redundancy: opts.redundancy },
  );
  const kept = chosen.required.get(topicId) ?? [];
  const dropped = kept.length === 0;
  const grade = new Map(chosen.qrels.map((q) => [q.docId, q.grade]));
  const qrels: Qrel[] = dropped
    ? []
    : passageIds.map((docId) => ({ topicId, docId, grade: grade.get(docId)!, subtopic: "0" }));
  const position = new Map(passageIds.map((id, i) => [id, i]));
  const divQrels: Qrel[] = dropped ? [] : chosen.diversityQrels
    .map((q) => ({ topicId, docId: q.docId, grade: q.grade, subtopic: q.subtopic }))
    .sort((a, b) =>
      Number(a.subtopic) - Number(b.subtopic) || position.get(a.docId)! - position.get(b.docId)!
    );
  return { topicId, answerable, kept, qrels, divQrels, dropped };
}
