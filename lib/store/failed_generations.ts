/**
 * Which topics of a generation run have no report because the model call
 * failed: kept in `meta` under `generation.failed|<run>`, so a reader of the
 * run's reports (the judge) knows the run is incomplete and stores no mean
 * over the reports that exist, and the analyses keep the row of a condition
 * whose reports all failed ({@linkcode failedReportRuns}).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";
import { readMetaJson, writeMetaJson } from "./meta_json.ts";

const KEY = "generation.failed|";

/**
 * The topics of a generation run whose report failed (empty when none did).
 *
 * @param ws The workspace.
 * @param run The generation run.
 * @returns Topic ids, sorted.
 * @example
 * ```ts
 * import { failedGenerations } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await failedGenerations(ws, "rag-bm25"); // e.g. ["d30001t"]
 * ```
 */
export async function failedGenerations(ws: WorkspaceLike, run: string): Promise<string[]> {
  return await readMetaJson<string[]>(ws, KEY + run) ?? [];
}

/**
 * Records the topics of a generation run whose report failed; an empty list
 * removes the record.
 *
 * @param ws The workspace.
 * @param run The generation run.
 * @param topics Topic ids without a report because their call failed.
 * @example
 * ```ts
 * import { recordFailedGenerations } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await recordFailedGenerations(ws, "rag-bm25", []); // the run is complete
 * ```
 */
export async function recordFailedGenerations(
  ws: WorkspaceLike,
  run: string,
  topics: readonly string[],
): Promise<void> {
  await writeMetaJson(
    ws,
    KEY + run,
    topics.length ? [...new Set(topics)].sort() : undefined,
  );
}

/** A generation run with topics whose report failed. */
export interface FailedReportRun {
  run: string;
  /** The run's condition as recorded in `generation_info` (`rag`, `direct`, ...); undefined when unrecorded. */
  condition?: string;
  /** Topic ids without a report because their model call failed, sorted. */
  topics: string[];
}

/**
 * Every generation run with at least one failed report (recorded by the
 * generate step, see `recordFailedGenerations`), by run name.
 *
 * @param ws The workspace.
 * @returns The runs, ordered by name.
 * @example
 * ```ts
 * import { failedReportRuns, importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await failedReportRuns(ws); // [] when no generation call failed
 * ```
 */
export async function failedReportRuns(ws: WorkspaceLike): Promise<FailedReportRun[]> {
  const rows = await ws.query<{ run: string; condition: string | null; value: string }>(
    `SELECT substr(m.key, ${KEY.length + 1}) AS run, i.condition, m.value
     FROM meta m LEFT JOIN generation_info i ON i.run = substr(m.key, ${KEY.length + 1})
     WHERE starts_with(m.key, $1) ORDER BY run`,
    [KEY],
  );
  return rows.map((r) => ({
    run: r.run,
    ...(r.condition === null || r.condition === undefined ? {} : { condition: r.condition }),
    topics: JSON.parse(r.value) as string[],
  }));
}
