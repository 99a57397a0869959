// Construction step `stats`: the dataset statistics table of a workspace.

import { datasetStats, type DatasetStatsRow } from "./dataset_stats.ts";
import {
  readDocuments,
  readPassages,
  readTopics,
  readWorkspaceQrels,
  readWorkspaceSubquestions,
  type WorkspaceLike,
} from "@lib/store/mod.ts";

/**
 * Construction step `stats`: the dataset statistics table of the workspace
 * (see {@link datasetStats}), counting the topics kept by selection (those with
 * `crux_pr` qrels) once selection has run, every topic before.
 *
 * @param ws The experiment workspace.
 * @param opts `qrelsName` of the passage qrels (default `crux_pr`).
 * @returns One row per dataset (topic source), plus `all` with several datasets.
 * @example
 * ```ts
 * import { workspaceStats } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const rows = await workspaceStats(ws);
 * rows[0].requiredPerTopic; // mean |P*|
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function workspaceStats(
  ws: WorkspaceLike,
  opts: { qrelsName?: string } = {},
): Promise<DatasetStatsRow[]> {
  const flat = <T>(m: Map<string, T[]>) => [...m.values()].flat();
  return datasetStats({
    topics: await readTopics(ws),
    documents: flat(await readDocuments(ws)),
    passages: flat(await readPassages(ws)),
    questions: flat(await readWorkspaceSubquestions(ws)),
    qrels: await readWorkspaceQrels(ws, opts.qrelsName ?? "crux_pr"),
  });
}
