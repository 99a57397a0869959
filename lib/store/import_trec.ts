/**
 * Imports TREC runs and qrels files into a workspace.
 *
 * @module
 */
import { recordQrels, recordRun } from "./provenance.ts";
import { basename, extname } from "node:path";
import { readQrels, readRun } from "@lib/formats/mod.ts";
import type { RunRow } from "@lib/types/mod.ts";

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
  const rows = await readRun(path, opts);
  // A document repeated within a topic keeps its best-ranked occurrence (score
  // descending, then rank), as the evaluator does; the others are counted.
  const best = new Map<string, RunRow>();
  for (const r of rows) {
    const key = `${r.run}\0${r.topicId}\0${r.docId}`;
    const b = best.get(key);
    if (!b || r.score > b.score || (r.score === b.score && r.rank < b.rank)) best.set(key, r);
  }
  opts.onDuplicates?.(rows.length - best.size);
  const kept = rows.filter((r) => best.get(`${r.run}\0${r.topicId}\0${r.docId}`) === r);
  return await ws.transaction(async () => {
    const n = await ws.upsert("runs", kept);
    for (const run of new Set(kept.map((r) => r.run))) {
      await recordRun(ws, { run, kind: "file", params: { path: basename(path) } });
    }
    return n;
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
