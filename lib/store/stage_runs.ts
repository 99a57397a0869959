/**
 * The pipeline's record of stage instances `stage_runs`: per instance, the
 * fingerprint, parameters and summary of its last run.
 *
 * One of the workspace's two memos (the other is the measure step's memo in
 * `measures.ts`). This one is declarative: the fingerprint covers a stage
 * instance's id, code version, parameters and the fingerprints of the instances
 * it reads, never the tables' contents, and decides whether the whole instance
 * runs (prefix `incomplete:` when items failed, so it never matches). Only the
 * stage runner writes it; `clear` closures read the parameters it recorded to
 * drop rows written under an earlier source or judge.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** What `stage_runs` holds for one stage instance. */
export interface StageRunRecord {
  /** Instance id, `stage` or `stage:instance`. */
  id: string;
  /** The recorded fingerprint (prefixed `incomplete:` when items failed). */
  fingerprint: string;
  /** The parameters it ran with (parsed JSON). */
  params: unknown;
  /** Its one-line summary. */
  summary: string;
}

/**
 * Every recorded stage instance, by id.
 *
 * @param ws The workspace.
 * @returns Id -> record.
 * @example
 * ```ts
 * import { readStageRuns } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * (await readStageRuns(ws)).get("retrieve:bm25")?.fingerprint;
 * ```
 */
export async function readStageRuns(ws: WorkspaceLike): Promise<Map<string, StageRunRecord>> {
  return new Map(
    (await ws.query<StageRunRecord>("SELECT id, fingerprint, params, summary FROM stage_runs"))
      .map((r) => [r.id, r]),
  );
}

/**
 * Records (or replaces) a stage instance's run, finished now.
 *
 * @param ws The workspace.
 * @param r Id, stage kind, fingerprint, parameters as canonical JSON text, summary.
 * @example
 * ```ts
 * import { recordStageRun } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await recordStageRun(ws, { id: "retrieve:bm25", stage: "retrieve", fingerprint: "ab", params: "{}", summary: "10 rows" });
 * ```
 */
export async function recordStageRun(
  ws: WorkspaceLike,
  r: { id: string; stage: string; fingerprint: string; params: string; summary: string },
): Promise<void> {
  await ws.exec(
    `INSERT OR REPLACE INTO stage_runs VALUES ($1, $2, $3, $4::JSON, $5, now())`,
    [r.id, r.stage, r.fingerprint, r.params, r.summary],
  );
}
