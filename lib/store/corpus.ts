/**
 * The corpus and its judgments as tables: `topics`, `passages` and the
 * selection's qrels (`qrels`): reads, writes and clears beyond the typed
 * record readers of `workspace_reads.ts`.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";
import type { Document, Passage, Qrel, Question, Topic } from "@lib/types/mod.ts";

/**
 * Deletes a topic's qrels of the given names (e.g. the selection's `crux_pr`
 * and `crux_div` before they are written again or withheld).
 *
 * @param ws The workspace.
 * @param topicId The topic.
 * @param names Qrels names.
 * @example
 * ```ts
 * import { deleteTopicQrels } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await deleteTopicQrels(ws, "t1", ["crux_pr", "crux_div"]);
 * ```
 */
export async function deleteTopicQrels(
  ws: WorkspaceLike,
  topicId: string,
  names: readonly string[],
): Promise<void> {
  if (names.length === 0) return;
  await ws.exec(
    `DELETE FROM qrels WHERE topic_id = $1 AND name IN (${
      names.map((_, i) => `$${i + 2}`).join(", ")
    })`,
    [topicId, ...names],
  );
}

/**
 * Every passage's text by passage id.
 *
 * @param ws The workspace.
 * @returns Passage id -> text.
 * @example
 * ```ts
 * import { readPassageTexts } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
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
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
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
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeTopicRows(ws, [{ topicId: "q1", request: "Why?", source: "answers" }]);
 * ```
 */
export async function writeTopicRows(ws: WorkspaceLike, rows: readonly Topic[]): Promise<void> {
  if (rows.length) await ws.upsert("topics", rows);
}

/**
 * The number of topics in the workspace.
 *
 * @param ws The workspace.
 * @returns The count.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countTopics } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * assert.equal(await countTopics(ws), 0); // before a dataset is imported
 * ```
 */
export async function countTopics(ws: WorkspaceLike): Promise<number> {
  return (await ws.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM topics"))[0].n;
}

/**
 * The ids of the workspace's topics, as a set.
 *
 * @param ws The workspace.
 * @returns Topic ids.
 * @example
 * ```ts
 * import { readTopicIds } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * (await readTopicIds(ws)).has("d30001t");
 * ```
 */
export async function readTopicIds(ws: WorkspaceLike): Promise<Set<string>> {
  return new Set(
    (await ws.query<{ topicId: string }>("SELECT topic_id FROM topics")).map((t) => t.topicId),
  );
}

/**
 * Deletes the selection's qrels (`crux_pr` and `crux_div`); other qrels stay.
 *
 * @param ws The workspace.
 * @example
 * ```ts
 * import { clearSelectionQrels } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearSelectionQrels(ws);
 * ```
 */
export async function clearSelectionQrels(ws: WorkspaceLike): Promise<void> {
  await ws.exec(`DELETE FROM qrels WHERE name IN ('crux_pr', 'crux_div')`);
}

/**
 * Writes documents, replacing those with the same id.
 *
 * @param ws The workspace.
 * @param rows The documents.
 * @example
 * ```ts
 * import { writeDocumentRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeDocumentRows(ws, [{ topicId: "t1", docId: "d9", docIndex: 9, text: "A document." }]);
 * ```
 */
export async function writeDocumentRows(
  ws: WorkspaceLike,
  rows: readonly Document[],
): Promise<void> {
  if (rows.length) await ws.upsert("documents", rows);
}

/**
 * Writes passages (with or without token counts), replacing those with the same id.
 *
 * @param ws The workspace.
 * @param rows The passages.
 * @example
 * ```ts
 * import { writePassageRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writePassageRows(ws, [{ passageId: "t1:d9#1", topicId: "t1", docId: "d9", text: "A passage." }]);
 * ```
 */
export async function writePassageRows(ws: WorkspaceLike, rows: readonly Passage[]): Promise<void> {
  if (rows.length) await ws.upsert("passages", rows);
}

/**
 * Writes questions (sub-questions, nuggets, key points), replacing those with
 * the same key.
 *
 * @param ws The workspace.
 * @param rows The questions.
 * @example
 * ```ts
 * import { writeQuestionRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeQuestionRows(ws, [{ topicId: "t1", questionId: "q9", kind: "subquestion", ordinal: 9, text: "Who?" }]);
 * ```
 */
export async function writeQuestionRows(
  ws: WorkspaceLike,
  rows: readonly Question[],
): Promise<void> {
  if (rows.length) await ws.upsert("questions", rows);
}

/**
 * Writes qrels rows, replacing those with the same key.
 *
 * @param ws The workspace.
 * @param rows The qrels.
 * @example
 * ```ts
 * import { writeQrelsRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeQrelsRows(ws, [{ name: "mine", topicId: "t1", docId: "d1#1", grade: 1, subtopic: "0" }]);
 * ```
 */
export async function writeQrelsRows(
  ws: WorkspaceLike,
  rows: readonly (Qrel & { name: string })[],
): Promise<void> {
  if (rows.length) await ws.upsert("qrels", rows);
}
