/**
 * Writes of the qrels table `qrels` for the selection step.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

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
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
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
