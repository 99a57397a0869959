/**
 * Stored counts of a method's inputs (key points extracted, nuggets created,
 * ...): one row per topic and count, and each count's total over the topics
 * counted on topic `all`. The methods that store counts build their rows here.
 *
 * @module
 */
import { measureRow } from "@lib/store/mod.ts";
import type { MeasureRow } from "@lib/types/mod.ts";
import { formatTopicSet } from "./topic_set.ts";

/**
 * The measure rows of per-topic counts and their totals.
 *
 * @param base The rows' method, run, judge and source.
 * @param perTopic Each counted topic with its counts (measure, value); a topic
 *   leaves out a count it cannot know, and so the total of that count.
 * @param measures The counts, in total-row order.
 * @returns Per-topic rows (topic set `topic(id=...)`), then for each count
 *   with a topic a total on topic `all`: the sum, `topics` the topics summed,
 *   topic set `judged(n=...)`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countRows } from "@lib/metrics/mod.ts";
 * const rows = countRows({ method: "m", run: "", judge: "", source: "s" }, [
 *   { topicId: "t1", counts: [["docs", 2], ["bad", 0]] },
 *   { topicId: "t2", counts: [["bad", 1]] },
 * ], ["docs", "bad"]);
 * assert.deepEqual(rows.filter((r) => r.topicId === "all").map((r) => [r.measure, r.value, r.topics]), [
 *   ["docs", 2, 1],
 *   ["bad", 1, 2],
 * ]);
 * ```
 */
export function countRows(
  base: { method: string; run: string; judge: string; source: string },
  perTopic: readonly { topicId: string; counts: readonly (readonly [string, number])[] }[],
  measures: readonly string[],
): MeasureRow[] {
  const rows = perTopic.flatMap((t) =>
    t.counts.map(([measure, value]) =>
      measureRow({
        ...base,
        topicId: t.topicId,
        measure,
        value,
        topicSet: formatTopicSet({ kind: "topic", id: t.topicId }),
      })
    )
  );
  const totals = measures.flatMap((measure) => {
    const mine = rows.filter((r) => r.measure === measure);
    return mine.length
      ? [measureRow({
        ...base,
        topicId: "all",
        measure,
        value: mine.reduce((s, r) => s + r.value, 0),
        topics: mine.length,
        topicSet: formatTopicSet({ kind: "judged", n: mine.length }),
      })]
      : [];
  });
  return [...rows, ...totals];
}
