/**
 * The dataset of each topic of a workspace: its `source` column, `default`
 * where a topic names none. Per-dataset tables and means read this one mapping.
 *
 * @module
 */
import { readTopics, type WorkspaceLike } from "./workspace_reads.ts";

/** The dataset of a topic that names none. */
const UNNAMED = "default";

/**
 * Topic id -> dataset, in the workspace's topic order.
 *
 * @param ws The workspace.
 * @returns The mapping (its distinct values are the workspace's datasets).
 * @example
 * ```ts
 * import { importSample, openWorkspace, readTopicDatasets } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const datasets = new Set((await readTopicDatasets(ws)).values());
 * ws.close();
 * ```
 */
export async function readTopicDatasets(ws: WorkspaceLike): Promise<Map<string, string>> {
  return new Map((await readTopics(ws)).map((t) => [t.topicId, t.source ?? UNNAMED]));
}
