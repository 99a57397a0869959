/**
 * The topic set a stored value states (see `TopicSet`), by the rule each
 * measure averages by: a per-topic value is over its topic; a mean of Cov or
 * Den is over the topics with a sub-question answerable at its threshold; a
 * mean of a relevance measure (P, nDCG, alpha-nDCG, ...) over the judged
 * topics; any other mean over every topic it has.
 *
 * @module
 */
import { parseMeasure } from "./parse_measure.ts";
import { formatTopicSet } from "./topic_set.ts";

/**
 * The written topic set of a stored value.
 *
 * @param row `measure` (its stored name), `topicId` (`all` for a mean), `topics`
 *   (the count averaged, means only) and `tau`, the threshold the value was
 *   computed at (the measure's own `tau` parameter wins when it writes one).
 * @returns `topic(id=...)`, `answerable(tau=..,n=..)`, `judged(n=..)` or
 *   `all(n=..)`; null for a mean whose count is unknown.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { valueTopicSet } from "@lib/metrics/value_topic_set.ts";
 * assert.equal(valueTopicSet({ measure: "Cov@10", topicId: "all", topics: 49, tau: 3 }), "answerable(tau=3,n=49)");
 * assert.equal(valueTopicSet({ measure: "nDCG@10", topicId: "all", topics: 50, tau: 3 }), "judged(n=50)");
 * assert.equal(valueTopicSet({ measure: "Cov", topicId: "t1", topics: null, tau: 3 }), "topic(id=t1)");
 * ```
 */
export function valueTopicSet(
  row: { measure: string; topicId: string; topics: number | null | undefined; tau: number },
): string | null {
  if (row.topicId !== "all") return formatTopicSet({ kind: "topic", id: row.topicId });
  if (row.topics === null || row.topics === undefined) return null;
  let name: string | undefined;
  let tau = row.tau;
  try {
    const m = parseMeasure(row.measure);
    name = m.name;
    if (typeof m.params.tau === "number") tau = m.params.tau;
  } catch {
    return formatTopicSet({ kind: "all", n: row.topics });
  }
  return name === "Cov" || name === "Den"
    ? formatTopicSet({ kind: "answerable", tau, n: row.topics })
    : formatTopicSet({ kind: "judged", n: row.topics });
}
