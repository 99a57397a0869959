/**
 * Imports TREC runs and qrels files into a workspace.
 *
 * @module
 */
import { recordQrels, recordRun } from "./provenance.ts";
import { basename, extname } from "node:path";
import { readQrels, streamRun } from "@lib/formats/mod.ts";

import type { Workspace } from "./workspace.ts";

/**
 * Loads a TREC run, replacing any stored rows of the same run name(s), in one
 * transaction (a failure stores nothing).
 *
 * @param ws The workspace.
 * @param path The run file.
 * @param opts `run` overrides the tag column (default: the tag column).
 * @returns The number of rows stored.
 * @throws {InputError} For a malformed run.
 * @example
 * ```ts
 * import { importRun, type Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await importRun(ws, "runs/bm25.run");
 * ```
 */
export async function importRun(
  ws: Workspace,
  path: string,
  opts: { run?: string; onDuplicates?: (count: number) => void } = {},
): Promise<number> {
  const names = new Set<string>();
  async function* rows() {
    for await (const batch of streamRun(path, opts)) {
      for (const r of batch) names.add(r.run);
      yield* batch;
    }
  }
  return await ws.transaction(async () => {
    // Rows are appended in batches as the file is read, so memory does not grow with it.
    const stored = await ws.upsertStream("runs", rows());
    // A document repeated within a topic keeps its best-ranked occurrence (score
    // descending, then rank, then the first line), as the evaluator does; the
    // others are counted. Done in the workspace, so unsorted runs need no memory here.
    const list = [...names];
    const dropped = list.length
      ? await ws.exec(
        `DELETE FROM runs WHERE rowid IN (
           SELECT rowid FROM (
             SELECT rowid, row_number() OVER (
               PARTITION BY run, topic_id, doc_id ORDER BY score DESC, rank ASC, rowid ASC) AS n
             FROM runs WHERE run IN (${list.map((_, i) => `$${i + 1}`).join(", ")}))
           WHERE n > 1)`,
        list,
      )
      : 0;
    opts.onDuplicates?.(dropped);
    for (const run of list) {
      await recordRun(ws, { run, kind: "file", params: { path: basename(path) } });
    }
    return stored - dropped;
  });
}

/**
 * Loads a qrels file (plain, diversity or CRUX `*_qrels_pr.txt`) under a name.
 *
 * @param ws The workspace.
 * @param path The qrels file.
 * @param opts `name` of the qrels set (default: file name without extension).
 * @returns The number of judgments stored (a repeated line counts once).
 * @throws {InputError} For malformed qrels.
 * @example
 * ```ts
 * import { importQrels, type Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await importQrels(ws, "crux/duc04_qrels_pr.txt"); // stored as "duc04_qrels_pr"
 * ```
 */
export async function importQrels(
  ws: Workspace,
  path: string,
  opts: { name?: string; onDuplicates?: (count: number) => void } = {},
): Promise<number> {
  const name = opts.name ?? basename(path, extname(path));
  const qrels = (await readQrels(path, { onDuplicates: opts.onDuplicates })).map((q) => ({
    ...q,
    name,
    subtopic: q.subtopic ?? "0",
  }));
  return await ws.transaction(async () => {
    await ws.exec("DELETE FROM qrels WHERE name = $1", [name]);
    const n = await ws.upsert("qrels", qrels);
    await recordQrels(ws, { name, origin: `import:${basename(path)}` });
    return n;
  });
}
