// The required subset P* and the qrels from a judgments file, without a workspace.

import type { RequiredSubsetOptions } from "@lib/metrics/mod.ts";
import type { Qrel } from "@lib/types/mod.ts";
import { type Judgment, parsePassageId } from "@lib/formats/mod.ts";
import { selectTopic, type TopicSelection } from "./select_topic.ts";

/** Qrels and per-topic outcomes of {@link selectFromJudgments}. */
export interface JudgmentSelection {
  /** Passage qrels (grades 3/2/1) of the kept topics, topic by topic in file order. */
  qrels: Qrel[];
  /** Diversity qrels (sub-questions numbered from 1) of the kept topics. */
  divQrels: Qrel[];
  /** Topics where nothing was kept. */
  dropped: string[];
  /** Per-topic selections, in file order. */
  topics: TopicSelection[];
}

/**
 * CRUX selection straight from a judgments file (no workspace): groups the
 * judgments by topic (report items such as `{topic}:report` are ignored), puts
 * each topic's passages in passage order (`j`, then id, as the workspace's
 * selection does, whatever the file's order, e.g. a run's ranking) and runs
 * {@link selectTopic} on each. A passage rated under two topics is a passage of
 * each, with that topic's ratings.
 *
 * @param judgments Judgments as read by `readJudgments` (ratings in question order).
 * @param opts `tau` (default 3) and `redundancy` (`all`, default, or `answerable`).
 * @returns Qrels, diversity qrels, dropped topics and per-topic details.
 * @throws {RangeError} When two passages of a topic have rating lists of different lengths.
 * @example
 * ```ts
 * import { selectFromJudgments } from "@lib/construct/mod.ts";
 * import { readJudgments, writeQrels } from "@lib/formats/mod.ts";
 * const sel = selectFromJudgments(await readJudgments("datasets/sample/judgments.jsonl"), { tau: 3 });
 * const dir = await Deno.makeTempDir();
 * await writeQrels(`${dir}/qrels_pr.txt`, sel.qrels);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function selectFromJudgments(
  judgments: readonly Judgment[],
  opts: RequiredSubsetOptions = {},
): JudgmentSelection {
  const byTopic = new Map<string, { ids: string[]; rows: number[][] }>();
  for (const j of judgments) {
    if (/:report(:|$)/.test(j.itemId)) continue;
    let t = byTopic.get(j.topicId);
    if (!t) byTopic.set(j.topicId, t = { ids: [], rows: [] });
    if (t.rows.length && t.rows[0].length !== j.ratings.length) {
      throw new RangeError(
        `Cannot select passages of topic "${j.topicId}": passage "${j.itemId}" has ${j.ratings.length} ratings but "${
          t.ids[0]
        }" has ${t.rows[0].length}; every passage needs one rating per sub-question`,
      );
    }
    t.ids.push(j.itemId);
    t.rows.push(j.ratings);
  }
  const out: JudgmentSelection = { qrels: [], divQrels: [], dropped: [], topics: [] };
  for (const [topicId, t] of byTopic) {
    const order = t.ids.map((_, i) => i).sort((a, b) =>
      ordinal(t.ids[a]) - ordinal(t.ids[b]) ||
      (t.ids[a] < t.ids[b] ? -1 : t.ids[a] > t.ids[b] ? 1 : 0)
    );
    const s = selectTopic({
      topicId,
      passageIds: order.map((i) => t.ids[i]),
      ratings: order.map((i) => t.rows[i]),
    }, opts);
    out.topics.push(s);
    if (s.dropped) out.dropped.push(topicId);
    out.qrels.push(...s.qrels);
    out.divQrels.push(...s.divQrels);
  }
  return out;
}

/** A passage's `j` (its place in the topic's passage order); other ids last. */
function ordinal(id: string): number {
  return parsePassageId(id)?.index ?? Infinity;
}
