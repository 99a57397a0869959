/**
 * Reads and clears of topics and the selection's qrels that the pipeline's
 * stages and the command line need.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * The number of topics in the workspace.
 *
 * @param ws The workspace.
 * @returns The count.
 * @example
 * ```ts
 * import { countTopics } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await countTopics(ws); // 0 before a dataset is imported
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
