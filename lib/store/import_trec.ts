/**
 * Imports TREC runs and qrels files into a workspace.
 *
 * @module
 */
import { recordQrels, recordRun } from "./provenance.ts";
import { basename, extname } from "node:path";
import { prefixRewrite, readQrels, rewriteOwnTopic, streamRun } from "@lib/formats/mod.ts";
import type { RunRow } from "@lib/types/mod.ts";

import type { Workspace } from "./workspace.ts";

/**
 * Loads a TREC run, replacing any stored rows of the same run name(s), in one
 * transaction (a failure stores nothing).
 *
 * @param ws The workspace.
 * @param path The run file.
 * @param opts `run` overrides the tag column (default: the tag column); `rewrite`
 *   maps topic id prefixes (`FROM=TO`, as `importCrux` takes them): each row's topic
 *   and each passage id `{topic}:...` under its own topic's rewrite, so a run
 *   naming topics as the original files do meets ratings imported with the same
 *   rewrite.
 * @returns The number of rows stored.
 * @throws {InputError} For a malformed run.
 * @throws {SyntaxError} For a malformed `rewrite` spec.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importRun } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const path = `${await Deno.makeTempDir()}/bm25.run`;
 * await Deno.writeTextFile(path, "sample-01 Q0 sample-01:0#0 1 12.5 bm25\n");
 * assert.equal(await importRun(ws, path), 1);
 * ```
 */
export async function importRun(
  ws: Workspace,
  path: string,
  opts: { run?: string; rewrite?: readonly string[]; onDuplicates?: (count: number) => void } = {},
): Promise<number> {
  const rewrite = opts.rewrite?.length ? prefixRewrite(opts.rewrite) : undefined;
  const rewritten = (r: RunRow): RunRow => {
    if (!rewrite) return r;
    return { ...r, topicId: rewrite(r.topicId), docId: rewriteOwnTopic(r.docId, rewrite) };
  };
  return await ws.transaction(async () => {
    const names = new Set<string>();
    const topics = new Set<string>();
    let grouped = true;
    let dropped = 0;
    let stored = 0;
    let group: RunRow[] = [];
    let batch: RunRow[] = [];
    const write = async (rows: RunRow[]) => {
      for (const r of rows) {
        if (names.has(r.run)) continue;
        // Rows of a run already stored are replaced; this import's rows come after.
        names.add(r.run);
        await ws.exec("DELETE FROM runs WHERE run = $1", [r.run]);
      }
      stored += await ws.insert("runs", rows);
    };
    const close = async () => {
      const kept = bestOccurrences(group);
      dropped += group.length - kept.length;
      for (const r of kept) batch.push(r);
      group = [];
      if (batch.length >= BATCH) {
        await write(batch);
        batch = [];
      }
    };
    // Rows are appended in batches as the file is read, a topic at a time, so memory
    // does not grow with the run.
    for await (const rows of streamRun(path, { run: opts.run })) {
      for (const row of rows) {
        const r = rewritten(row);
        const last = group[group.length - 1];
        if (last && (last.topicId !== r.topicId || last.run !== r.run)) await close();
        if (group.length === 0) {
          const key = `${r.run}\0${r.topicId}`;
          if (topics.has(key)) grouped = false;
          topics.add(key);
        }
        group.push(r);
      }
    }
    await close();
    if (batch.length) await write(batch);
    // A topic spread over the file: its repeats are found in the workspace.
    if (!grouped) dropped += await dropRepeats(ws, [...names]);
    opts.onDuplicates?.(dropped);
    for (const run of names) {
      await recordRun(ws, { run, kind: "file", params: { path: basename(path) } });
    }
    return stored - (grouped ? 0 : dropped);
  });
}

/** Rows appended to the workspace at a time. */
const BATCH = 50_000;

/** A document's best-ranked occurrence in one topic's rows: score descending, then rank, then the first line. */
function bestOccurrences(rows: RunRow[]): RunRow[] {
  const best = new Map<string, RunRow>();
  for (const r of rows) {
    const b = best.get(r.docId);
    if (!b || r.score > b.score || (r.score === b.score && r.rank < b.rank)) best.set(r.docId, r);
  }
  return best.size === rows.length ? rows : rows.filter((r) => best.get(r.docId) === r);
}

/** Deletes every occurrence but the best-ranked of a document repeated within a topic. */
async function dropRepeats(ws: Workspace, runs: string[]): Promise<number> {
  if (!runs.length) return 0;
  return await ws.exec(
    `DELETE FROM runs WHERE rowid IN (
       SELECT rowid FROM (
         SELECT rowid, row_number() OVER (
           PARTITION BY run, topic_id, doc_id ORDER BY score DESC, rank ASC, rowid ASC) AS n
         FROM runs WHERE run IN (${runs.map((_, i) => `$${i + 1}`).join(", ")}))
       WHERE n > 1)`,
    runs,
  );
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
 * import assert from "node:assert/strict";
 * import { importQrels } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const path = `${await Deno.makeTempDir()}/sample_qrels.txt`;
 * await Deno.writeTextFile(path, "sample-01 0 sample-01:0#0 1\n");
 * assert.equal(await importQrels(ws, path), 1); // stored as "sample_qrels"
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
