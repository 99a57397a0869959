/**
 * Reads of passages and writes of topics for the evaluation methods (nuggets,
 * sub-question coverage).
 *
 * @module
 */
import type { Topic } from "@lib/types/mod.ts";
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * Every passage's text by passage id.
 *
 * @param ws The workspace.
 * @returns Passage id -> text.
 * @example
 * ```ts
 * import { readPassageTexts } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * (await readPassageTexts(ws)).get("d1#1");
 * ```
 */
export async function readPassageTexts(ws: WorkspaceLike): Promise<Map<string, string>> {
  return new Map(
    (await ws.query<{ id: string; text: string }>(`SELECT passage_id AS id, text FROM passages`))
      .map((r) => [r.id, r.text]),
  );
}

/** A passage with its topic and token count (null when not counted). */
export interface PassageTokens {
  id: string;
  topicId: string;
  text: string;
  tokens: number | null;
}

/**
 * Every passage with its topic, text and token count, in passage id order.
 *
 * @param ws The workspace.
 * @returns The passages.
 * @example
 * ```ts
 * import { readPassagesById } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * (await readPassagesById(ws)).filter((p) => p.tokens === null).length;
 * ```
 */
export async function readPassagesById(ws: WorkspaceLike): Promise<PassageTokens[]> {
  return await ws.query<PassageTokens>(
    `SELECT passage_id AS id, topic_id AS "topicId", text, tokens FROM passages ORDER BY passage_id`,
  );
}

/**
 * Stores topics, replacing those with the same id.
 *
 * @param ws The workspace.
 * @param rows The topics.
 * @example
 * ```ts
 * import { writeTopicRows } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await writeTopicRows(ws, [{ topicId: "q1", request: "Why?", source: "answers" }]);
 * ```
 */
export async function writeTopicRows(ws: WorkspaceLike, rows: readonly Topic[]): Promise<void> {
  if (rows.length) await ws.upsert("topics", rows);
}
