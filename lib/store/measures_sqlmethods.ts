/**
 * Replacing the `measures` rows of an evaluation method (nuggets, sub-question
 * coverage) for one judge and source.
 *
 * @module
 */
import type { MeasureRow } from "@lib/types/mod.ts";
import type { WorkspaceLike } from "./workspace_reads.ts";

/** Which method rows to clear: a method's rows of one judge and source, optionally of one run. */
export interface MethodMeasureSelection {
  method: string;
  judge: string;
  source: string;
  run?: string;
}

/**
 * Deletes the `measures` rows of a method for one judge and source (and, with
 * `run`, of that run only).
 *
 * @param ws The workspace.
 * @param sel Method, judge, source and optional run.
 * @returns The number of rows deleted.
 * @example
 * ```ts
 * import { clearMethodMeasures } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await clearMethodMeasures(ws, { method: "nuggets", judge: "m", source: "created:offline", run: "rag-bm25" });
 * ```
 */
export async function clearMethodMeasures(
  ws: WorkspaceLike,
  sel: MethodMeasureSelection,
): Promise<number> {
  const params = [sel.method, sel.judge, sel.source, ...(sel.run === undefined ? [] : [sel.run])];
  return Number(
    await ws.exec(
      `DELETE FROM measures WHERE method = $1 AND judge = $2 AND source = $3${
        sel.run === undefined ? "" : " AND run = $4"
      }`,
      params,
    ) ?? 0,
  );
}

/**
 * Stores measure rows, replacing those of the same key.
 *
 * @param ws The workspace.
 * @param rows The rows (see `measureRow`).
 * @example
 * ```ts
 * import { writeMethodMeasures } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await writeMethodMeasures(ws, []);
 * ```
 */
export async function writeMethodMeasures(
  ws: WorkspaceLike,
  rows: readonly MeasureRow[],
): Promise<void> {
  if (rows.length) await ws.upsert("measures", rows);
}
