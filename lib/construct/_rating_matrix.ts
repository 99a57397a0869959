// One topic's passage x sub-question rating matrix, as the construction steps read it.

import type { Rating } from "@lib/types/mod.ts";
import { passageOrdinal } from "@lib/store/mod.ts";

/** One topic's passage x sub-question rating matrix. */
export interface TopicMatrix {
  topicId: string;
  /** Sub-question ids in ordinal order (column order). */
  questionIds: string[];
  /** Passage ids in passage order (row order). */
  passageIds: string[];
  /** `ratings[i][k]` = G(passage i, question k); -1 kept as given; missing pairs are 0. */
  ratings: number[][];
  /** Pairs with no rating in a passage that has some rating (counted as 0). */
  missing: number;
  /** `rated[i]`: passage i has at least one rating by the judge. */
  rated: boolean[];
}

/**
 * Builds per-topic rating matrices from long-format passage ratings (one judge),
 * each from the ratings given under that topic only: a passage rated under
 * topics A and B is a row of A with A's ratings and a row of B with B's; a
 * passage rated only under B is no row of A. Rows are the passages rated under
 * the topic, in passage order (`j`, then id; see `passageOrdinal`), columns
 * `questions`.
 */
export function ratingMatrices(
  ratings: readonly Rating[],
  questions: ReadonlyMap<string, readonly string[]>,
): Map<string, TopicMatrix> {
  const byTopic = new Map<string, Map<string, Map<string, number>>>();
  for (const r of ratings) {
    let items = byTopic.get(r.topicId);
    if (!items) byTopic.set(r.topicId, items = new Map());
    let m = items.get(r.itemId);
    if (!m) items.set(r.itemId, m = new Map());
    m.set(r.questionId, r.rating);
  }
  const out = new Map<string, TopicMatrix>();
  for (const [topicId, questionIds] of questions) {
    const items = byTopic.get(topicId) ?? new Map<string, Map<string, number>>();
    const passageIds = [...items.keys()].sort((a, b) =>
      passageOrdinal(a) - passageOrdinal(b) || (a < b ? -1 : a > b ? 1 : 0)
    );
    let missing = 0;
    const rows = passageIds.map((pid) => {
      const m = items.get(pid)!;
      return questionIds.map((qid) => {
        const r = m.get(qid);
        if (r === undefined) {
          missing++;
          return 0;
        }
        return r;
      });
    });
    out.set(topicId, {
      topicId,
      questionIds: [...questionIds],
      passageIds,
      ratings: rows,
      missing,
      rated: passageIds.map(() => true),
    });
  }
  return out;
}
