/**
 * BM25 retrieval over a workspace's pooled passages, written as a run.
 *
 * @module
 */
import { recordRun, type Workspace } from "@lib/store/mod.ts";
import { Bm25Index, bm25Run } from "@lib/retrieval/mod.ts";

/** Options of {@linkcode retrieveBm25}. */
export interface RetrieveBm25Options {
  /** Run name. Default `bm25`. */
  run?: string;
  /** Depth of the ranking. Default 100. */
  k?: number;
  /** BM25 k1. Default 0.9. */
  k1?: number;
  /** BM25 b. Default 0.4. */
  b?: number;
  /** Replace an existing run of that name. Default false (an existing run is kept). */
  force?: boolean;
}

/** What {@linkcode retrieveBm25} did. */
export interface RetrieveSummary {
  run: string;
  /** Topics searched (0 when the run already existed). */
  topics: number;
  /** Rows in the run. */
  rows: number;
  /** True when an existing run was kept. */
  reused: boolean;
}

/**
 * Searches every topic's report request against the pooled corpus of all the
 * workspace's passages (Lucene-compatible BM25 and English analyzer) and
 * stores the ranking in the `runs` table. Idempotent: an existing run of the
 * same name is kept unless `force` is set.
 *
 * @param ws The workspace.
 * @param opts See {@linkcode RetrieveBm25Options}; defaults run `bm25`, k 100, k1 0.9, b 0.4.
 * @returns The run name and counts.
 * @example
 * ```ts
 * import { retrieveBm25 } from "@lib/experiment/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace; // a workspace with pooled passages
 * const s = await retrieveBm25(ws, { k: 100 });
 * s.rows; // topics x up to 100
 * ```
 */
export async function retrieveBm25(
  ws: Workspace,
  opts: RetrieveBm25Options = {},
): Promise<RetrieveSummary> {
  const run = opts.run ?? "bm25";
  const existing = await ws.query<{ n: number }>(
    "SELECT count(*)::INTEGER AS n FROM runs WHERE run = $1",
    [run],
  );
  if (existing[0].n > 0 && !opts.force) {
    return { run, topics: 0, rows: existing[0].n, reused: true };
  }
  const passages = await ws.passages();
  const index = Bm25Index.build(passages.map((p) => ({ id: p.passageId, text: p.text })), {
    k1: opts.k1,
    b: opts.b,
  });
  const topics = await ws.topics();
  const queries = topics.map((t) => ({ topicId: t.topicId, text: t.request || t.title || "" }));
  const rows = bm25Run(index, queries, { run, k: opts.k ?? 100 });
  await ws.transaction(async () => {
    await ws.exec("DELETE FROM runs WHERE run = $1", [run]);
    await ws.insert("runs", rows);
    await recordRun(ws, {
      run,
      kind: "bm25",
      params: { k: opts.k ?? 100, k1: opts.k1, b: opts.b },
    });
  });
  return { run, topics: topics.length, rows: rows.length, reused: false };
}
