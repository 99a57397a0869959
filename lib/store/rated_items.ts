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
 * The kind (`passage`, `report`, `reference`) of every item one judge rated,
 * by the topic it was rated under.
 *
 * @param ws The workspace.
 * @param judge The judge.
 * @returns Topic id -> item id -> kind.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRatedItemKinds } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const kinds = await readRatedItemKinds(ws, "human");
 * assert.equal(kinds.get("sample-01")?.get("sample-01:0#0"), "passage");
 * ```
 */
export async function readRatedItemKinds(
  ws: WorkspaceLike,
  judge: string,
): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  for (
    const k of await ws.query<{ topicId: string; itemId: string; kind: string }>(
      `SELECT topic_id AS "topicId", item_id AS "itemId", item_kind AS kind
       FROM rated_items WHERE judge = $1`,
      [judge],
    )
  ) {
    let topic = out.get(k.topicId);
    if (!topic) out.set(k.topicId, topic = new Map());
    topic.set(k.itemId, k.kind);
  }
  return out;
}
