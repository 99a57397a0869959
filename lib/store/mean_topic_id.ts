/**
 * The topic ids of mean rows in `measures`: `all` for a run's mean over its
 * topic set, `all:<dataset>` for the mean over one dataset's topics when the
 * workspace holds several. Every reader that takes per-topic rows leaves both out.
 *
 * @module
 */

/** Prefix of a per-dataset mean's topic id. */
const DATASET_PREFIX = "all:";

/**
 * The topic id of a mean row, and whether a topic id is one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { meanTopicId } from "@lib/store/mod.ts";
 * assert.equal(meanTopicId.of(), "all");
 * assert.equal(meanTopicId.of("duc04"), "all:duc04");
 * assert.equal(meanTopicId.is("all:duc04"), true);
 * assert.equal(meanTopicId.is("duc04-test-9"), false);
 * assert.equal(meanTopicId.dataset("all:duc04"), "duc04");
 * ```
 */
export const meanTopicId = {
  /** `all`, or `all:<dataset>` for the mean over one dataset's topics. */
  of(dataset?: string): string {
    if (dataset === "") {
      throw new RangeError("Cannot name the mean of a dataset with an empty name");
    }
    return dataset === undefined ? "all" : `${DATASET_PREFIX}${dataset}`;
  },
  /** Whether a topic id names a mean (the run's, or one dataset's). */
  is(topicId: string): boolean {
    return topicId === "all" || topicId.startsWith(DATASET_PREFIX);
  },
  /** The dataset of a per-dataset mean's topic id; undefined for any other id. */
  dataset(topicId: string): string | undefined {
    return topicId.startsWith(DATASET_PREFIX) && topicId.length > DATASET_PREFIX.length
      ? topicId.slice(DATASET_PREFIX.length)
      : undefined;
  },
  /** The SQL condition on `topic_id` that takes per-topic rows only. */
  perTopicSql: "topic_id <> 'all' AND NOT starts_with(topic_id, 'all:')",
} as const;
