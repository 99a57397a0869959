// Groups ratings by topic for the CRUX measures.

import type { ItemRatings } from "./judged.ts";

/** Ratings of one topic, grouped. */
export interface TopicRatings {
  ratings: Map<string, Int8Array>;
  /** Judged passages in input order (report items excluded). */
  passages: string[];
  questions: number;
}

/** Whether `itemId` names a report of `topicId` rather than a passage. */
export function isReportId(topicId: string, itemId: string): boolean {
  const base = `${topicId}:report`;
  return itemId === base || itemId.startsWith(base + ":");
}

/**
 * Groups ratings by topic, turning -1 into 0 and counting them.
 *
 * @throws {Error} When an item's rating count differs from its topic's, or a
 *   rating is not an integer in -1..5 (other integers are accepted as given).
 */
export function collectRatings(
  judgments: readonly ItemRatings[],
): { topics: Map<string, TopicRatings>; unparseable: number } {
  const topics = new Map<string, TopicRatings>();
  let unparseable = 0;
  for (const j of judgments) {
    let t = topics.get(j.topicId);
    if (!t) {
      topics.set(j.topicId, t = { ratings: new Map(), passages: [], questions: j.ratings.length });
    }
    if (j.ratings.length !== t.questions) {
      throw new Error(
        `Cannot use judgments: item "${j.itemId}" of topic "${j.topicId}" has ${j.ratings.length} ` +
          `ratings but the topic's first item has ${t.questions}; every item needs one rating per sub-question`,
      );
    }
    const row = new Int8Array(j.ratings.length);
    for (let q = 0; q < j.ratings.length; q++) {
      const r = j.ratings[q];
      if (!Number.isInteger(r) || r < -1 || r > 127) {
        throw new Error(
          `Cannot use judgments: item "${j.itemId}" of topic "${j.topicId}" has rating ${r} ` +
            `for sub-question ${q + 1}; ratings must be integers 0-5, or -1 for unparseable`,
        );
      }
      if (r === -1) unparseable++;
      row[q] = r < 0 ? 0 : r;
    }
    if (!t.ratings.has(j.itemId) && !isReportId(j.topicId, j.itemId)) t.passages.push(j.itemId);
    t.ratings.set(j.itemId, row);
  }
  return { topics, unparseable };
}
