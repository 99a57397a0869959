/**
 * Reads of `rated_items`: what each item a judge rated is (a passage, a report
 * of a run, the reference summary).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * Judges that rated at least one report or reference summary (an item that is
 * not a passage).
 *
 * @param ws The workspace.
 * @returns The judges, in name order.
 * @example
 * ```ts
 * import { readReportJudges } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const judges = await readReportJudges(ws); // e.g. ["gpt-4o"]
 * ```
 */
export async function readReportJudges(ws: WorkspaceLike): Promise<string[]> {
  return (await ws.query<{ judge: string }>(
    `SELECT DISTINCT judge FROM rated_items WHERE item_kind <> 'passage' ORDER BY judge`,
  )).map((r) => r.judge);
}

/**
 * The kind (`passage`, `report`, `reference`) of every item one judge rated.
 *
 * @param ws The workspace.
 * @param judge The judge.
 * @returns Item id -> kind.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRatedItemKinds } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * assert.equal((await readRatedItemKinds(ws, "human")).get("sample-01:0#0"), "passage");
 * ```
 */
export async function readRatedItemKinds(
  ws: WorkspaceLike,
  judge: string,
): Promise<Map<string, string>> {
  return new Map(
    (await ws.query<{ itemId: string; kind: string }>(
      `SELECT item_id AS "itemId", item_kind AS kind FROM rated_items WHERE judge = $1`,
      [judge],
    )).map((k) => [k.itemId, k.kind]),
  );
}
