// The passage counter `j` of a CRUX passage id `{topic}:{doc}#{j}`.

import { parsePassageId } from "@lib/formats/mod.ts";

/**
 * Reads the passage counter `j` of a CRUX passage id `{topic}:{doc}#{j}`, parsed
 * by `parsePassageId` of `@lib/formats` (one definition of the id scheme).
 *
 * @param passageId A passage id.
 * @returns `j`, or `Infinity` when the id does not follow `{topic}:{doc}#{j}`
 *   (sorts last), e.g. a report id or `doc#3` without a document number.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(passageOrdinal("multi_news-test-12:2#7"), 7);
 * ```
 */
export function passageOrdinal(passageId: string): number {
  return parsePassageId(passageId)?.index ?? Infinity;
}
