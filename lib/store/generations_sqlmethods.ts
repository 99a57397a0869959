/**
 * Reads of generated answers for the evaluation methods (nuggets, sub-question
 * coverage).
 *
 * @module
 */
import type { Generation } from "@lib/types/mod.ts";
import type { WorkspaceLike } from "./workspace_reads.ts";

/** A generated answer with its context passages (null when it has none recorded). */
export interface GeneratedAnswer {
  run: string;
  topicId: string;
  text: string;
  contextIds: string[] | null;
}

/**
 * The answers of some runs (every run without `runs`), ordered by run and topic.
 *
 * @param ws The workspace.
 * @param runs The runs to read; all runs when absent.
 * @returns Run, topic, text and context passage ids.
 * @example
 * ```ts
 * import { readGeneratedAnswers } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * (await readGeneratedAnswers(ws, ["rag-bm25"])).map((a) => a.topicId);
 * ```
 */
export async function readGeneratedAnswers(
  ws: WorkspaceLike,
  runs?: readonly string[],
): Promise<GeneratedAnswer[]> {
  return runs === undefined
    ? await ws.query<GeneratedAnswer>(
      `SELECT run, topic_id AS "topicId", text, context_ids AS "contextIds" FROM generations
       ORDER BY run, topic_id`,
    )
    : await ws.query<GeneratedAnswer>(
      `SELECT run, topic_id AS "topicId", text, context_ids AS "contextIds" FROM generations
       WHERE list_contains($1::JSON::VARCHAR[], run) ORDER BY run, topic_id`,
      [JSON.stringify(runs)],
    );
}

/**
 * Stores generated answers, replacing those of the same run and topic.
 *
 * @param ws The workspace.
 * @param rows The answers.
 * @example
 * ```ts
 * import { writeGenerationRows } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await writeGenerationRows(ws, [{ run: "rag", topicId: "t1", text: "An answer.", condition: "file" }]);
 * ```
 */
export async function writeGenerationRows(
  ws: WorkspaceLike,
  rows: readonly Generation[],
): Promise<void> {
  if (rows.length) await ws.upsert("generations", rows);
}
