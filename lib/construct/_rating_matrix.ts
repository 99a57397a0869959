import type { Rating } from "@lib/types/mod.ts";

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
 * Builds per-topic rating matrices from long-format ratings (one judge).
 * Rows follow `passages` (already in passage order), columns `questions`.
 */
export function ratingMatrices(
  ratings: readonly Rating[],
  questions: ReadonlyMap<string, readonly string[]>,
  passages: ReadonlyMap<string, readonly string[]>,
): Map<string, TopicMatrix> {
  const byItem = new Map<string, Map<string, number>>();
  for (const r of ratings) {
    let m = byItem.get(r.itemId);
    if (!m) byItem.set(r.itemId, m = new Map());
    m.set(r.questionId, r.rating);
  }
  const out = new Map<string, TopicMatrix>();
  for (const [topicId, questionIds] of questions) {
    const passageIds = [...(passages.get(topicId) ?? [])];
    let missing = 0;
    const rated = passageIds.map((pid) => byItem.has(pid));
    const rows = passageIds.map((pid) => {
      const m = byItem.get(pid);
      return questionIds.map((qid) => {
        const r = m?.get(qid);
        if (r === undefined) {
          if (m) missing++;
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
      rated,
    });
  }
  return out;
}
