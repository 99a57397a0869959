/**
 * CRUX item ids: passages `{topic}:{doc}#{j}` (`doc` = the document's index in the
 * topic, `j` counting passages across the topic) and reports `{topic}:report`
 * (or `{topic}:report:{run}`).
 *
 * @module
 */

/** The parts of a CRUX passage id. */
export interface PassageIdParts {
  topicId: string;
  /** Document id `{topic}:{doc}`. */
  docId: string;
  docIndex: number;
  /** Passage number within the topic. */
  index: number;
}

const PASSAGE = /^(.+):(\d+)#(\d+)$/;
const REPORT = /^(.+):report(?::[^:]*)?$/;

/**
 * Splits a CRUX passage id into topic, document and passage number.
 *
 * @param id A passage id such as `multi_news-test-12:2#7`.
 * @returns The parts, or `undefined` when `id` does not follow the scheme.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parsePassageId("multi_news-test-12:2#7"), { topicId: "multi_news-test-12", docId: "multi_news-test-12:2", docIndex: 2, index: 7 });
 * ```
 */
export function parsePassageId(id: string): PassageIdParts | undefined {
  const m = PASSAGE.exec(id);
  if (!m) return undefined;
  return { topicId: m[1], docId: `${m[1]}:${m[2]}`, docIndex: Number(m[2]), index: Number(m[3]) };
}

/**
 * The topic of a passage id or report id (`{topic}:report[:run]`).
 *
 * @param id A passage or report id.
 * @returns The topic id, or `undefined` when `id` follows neither scheme.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(itemTopic("duc04-test-3:report"), "duc04-test-3");
 * ```
 */
export function itemTopic(id: string): string | undefined {
  return parsePassageId(id)?.topicId ?? REPORT.exec(id)?.[1];
}
