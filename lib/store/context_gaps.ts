/**
 * Contexts of generated reports that lack passages: which passages of a run's top
 * k had no text in the workspace when a report was written from it.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";
import { writeMetaJson } from "./meta_json.ts";

/** One topic's incomplete context in a generated run. */
export interface ContextGap {
  topicId: string;
  /** Passages the context should hold (k = |P*| for CRUX budgets). */
  k: number;
  /** Ids of the top k without text, left out. */
  missing: string[];
  /** Lower-ranked ids that took their places (missing-text rule `fill`). */
  filled: string[];
}

const KEY = "context_gaps:";

/**
 * Records the incomplete contexts of a generated run (replacing what was
 * recorded for it before; an empty list removes the record).
 *
 * @param ws The workspace.
 * @param run The generated run.
 * @param gaps Its topics with incomplete contexts.
 * @example
 * ```ts
 * import { recordContextGaps } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await recordContextGaps(ws, "rag-bm25", [{ topicId: "t1", k: 3, missing: ["x#1"], filled: [] }]);
 * ```
 */
export async function recordContextGaps(
  ws: WorkspaceLike,
  run: string,
  gaps: readonly ContextGap[],
): Promise<void> {
  await writeMetaJson(ws, KEY + run, gaps.length ? gaps : undefined);
}

/**
 * The incomplete contexts of every generated run that still has reports, by run.
 *
 * @param ws The workspace.
 * @returns Run -> its topics with incomplete contexts (runs without gaps are absent).
 * @example
 * ```ts
 * import { readContextGaps } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * for (const [run, gaps] of await readContextGaps(ws)) console.log(run, gaps.length);
 * ```
 */
export async function readContextGaps(ws: WorkspaceLike): Promise<Map<string, ContextGap[]>> {
  const rows = await ws.query<{ run: string; value: string }>(
    `SELECT substr(key, ${KEY.length + 1}) AS run, value FROM meta
     WHERE starts_with(key, '${KEY}')
       AND substr(key, ${KEY.length + 1}) IN (SELECT DISTINCT run FROM generations)
     ORDER BY run`,
  );
  return new Map(rows.map((r) => [r.run, JSON.parse(r.value) as ContextGap[]]));
}
