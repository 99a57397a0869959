/**
 * Imports DUC 2004 task 2 (documents and human summaries) from the user's licensed copy.
 *
 * @module
 */
import { ducClusterKey, readDucClusters, readDucSummaries } from "@lib/formats/mod.ts";
import type { Document, Generation, Topic } from "@lib/types/mod.ts";
import type { ImportCounts, ImportOptions } from "./_import.ts";
import type { Workspace } from "./workspace.ts";

/** Options of {@linkcode importDuc}. */
export interface DucImportOptions extends ImportOptions {
  /**
   * Topic ids: `cluster` (default) gives `duc04-{folder}` (`duc04-d30001t`);
   * `numbered` gives `duc04-test-{n}` with n the cluster's position in sorted folder order.
   */
  ids?: "cluster" | "numbered";
}

/**
 * Loads DUC 2004 clusters idempotently: one topic per cluster folder (source
 * `duc04`, title = folder name, summary = the first assessor's summary), one
 * document `{topic}:{i}` per article (title = headline or DOCNO), and every human
 * summary as a generation of run `human-{k}` (k = 1.. in assessor order, backend
 * `human`, condition `reference`).
 *
 * @param ws The workspace.
 * @param dirs `docs`: folder of cluster folders; `models`: folder of summaries.
 * @param opts `ids` (default `cluster`), `onProgress`.
 * @returns Rows stored per table.
 * @throws {InputError} For malformed document files or folders without clusters or summaries.
 * @example
 * ```ts ignore
 * // Not run as a test: it reads DUC 2004, which the user brings.
 * import { importDuc } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await importDuc(ws, { docs: "duc2004/docs", models: "duc2004/models" });
 * ```
 */
export async function importDuc(
  ws: Workspace,
  dirs: { docs: string; models: string },
  opts: DucImportOptions = {},
): Promise<ImportCounts> {
  const clusters = await readDucClusters(dirs.docs, {
    onDuplicates: (n) =>
      n && opts.onProgress?.(`dropped ${n} articles repeating an earlier one of their cluster`),
  });
  const summaries = await readDucSummaries(dirs.models);
  const topics: Topic[] = [];
  const documents: Document[] = [];
  const generations: Generation[] = [];
  clusters.forEach((c, n) => {
    const topicId = opts.ids === "numbered" ? `duc04-test-${n}` : `duc04-${c.cluster}`;
    const mine = summaries.filter((s) => s.cluster === ducClusterKey(c.cluster));
    if (mine.length === 0) opts.onProgress?.(`cluster ${c.cluster} has no human summary`);
    const topic: Topic = { topicId, request: "", title: c.cluster, source: "duc04" };
    if (mine.length) topic.summary = mine[0].text;
    topics.push(topic);
    c.documents.forEach((d, i) =>
      documents.push({
        topicId,
        docId: `${topicId}:${i}`,
        docIndex: i,
        text: d.text,
        title: d.headline ?? d.docNo,
      })
    );
    mine.forEach((s, k) =>
      generations.push({
        run: `human-${k + 1}`,
        topicId,
        text: s.text,
        condition: "reference",
        backend: "human",
      })
    );
  });
  return await ws.transaction(async () => ({
    topics: await ws.upsert("topics", topics),
    documents: await ws.upsert("documents", documents),
    generations: await ws.upsert("generations", generations),
  }));
}
