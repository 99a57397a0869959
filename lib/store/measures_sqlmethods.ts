/**
 * Writing the `measures` rows of an evaluation method (nuggets, sub-question
 * coverage); `clearMethodMeasures` (measures.ts) clears them.
 *
 * @module
 */
import type { MeasureRow } from "@lib/types/mod.ts";
import type { WorkspaceLike } from "./workspace_reads.ts";

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
