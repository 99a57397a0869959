/**
 * The item id a generated report is rated under, so its ratings are found by
 * what the report is.
 *
 * @module
 */
import type { Generation } from "@lib/types/mod.ts";

/**
 * Item id a report is judged under: `{topic}:report` for the human summary, `{topic}:report:{run}` otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportItemId } from "@lib/judge/mod.ts";
 * assert.equal(reportItemId({ run: "rag-bm25", topicId: "t1" }), "t1:report:rag-bm25");
 * assert.equal(reportItemId({ run: "oracle-result", topicId: "t1" }), "t1:report");
 * ```
 */
export const reportItemId = (g: Pick<Generation, "run" | "topicId">): string =>
  g.run === "oracle-result" ? `${g.topicId}:report` : `${g.topicId}:report:${g.run}`;
