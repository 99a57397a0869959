/**
 * Reads of the rating table `ratings` (graded answerability of items against
 * sub-questions, by judge) beyond the plain rows of `readRatings`.
 *
 * @module
 */
import { readRatings, type WorkspaceLike } from "./workspace_reads.ts";

/**
 * The (item, sub-question) pairs a judge has a usable rating for (0-5; failed
 * pairs have no row and unparsed ones rate -1, so both are asked again).
 *
 * @param ws The workspace.
 * @param judge The judge.
 * @returns Keys `item id + "\0" + question id`.
 * @example
 * ```ts
 * import { ratedPairs } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * (await ratedPairs(ws, "human")).has("t:0#0\0t#q1");
 * ```
 */
export async function ratedPairs(ws: WorkspaceLike, judge: string): Promise<Set<string>> {
  const rows = await ws.query<{ k: string }>(
    `SELECT item_id || chr(0) || question_id AS k FROM ratings WHERE judge = $1 AND rating >= 0`,
    [judge],
  );
  return new Set(rows.map((r) => r.k));
}

/**
 * How many ratings of passages (items of kind `passage` in `rated_items`) each
 * judge has, for choosing the judge of the construction matrix.
 *
 * @param ws The workspace.
 * @returns Judge -> number of passage ratings (judges without any are absent).
 * @example
 * ```ts
 * import { passageRatingCounts } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * (await passageRatingCounts(ws)).get("human"); // e.g. 1200
 * ```
 */
export async function passageRatingCounts(ws: WorkspaceLike): Promise<Map<string, number>> {
  const rows = await ws.query<{ judge: string; n: number }>(
    `SELECT judge, count(*) AS n FROM ratings JOIN rated_items i USING (item_id, judge)
     WHERE i.item_kind = 'passage' GROUP BY judge`,
  );
  return new Map(rows.map((r) => [r.judge, Number(r.n)]));
}

/**
 * Every rating of one judge by item: item id -> question id -> rating (-1 =
 * unparsed).
 *
 * @param ws The workspace.
 * @param judge The judge.
 * @returns The judge's ratings grouped by item.
 * @example
 * ```ts
 * import { ratingsByItem } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * (await ratingsByItem(ws, "human")).get("t:0#0")?.get("t#q1"); // e.g. 4
 * ```
 */
export async function ratingsByItem(
  ws: WorkspaceLike,
  judge: string,
): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  for (const r of await readRatings(ws, judge)) {
    let row = out.get(r.itemId);
    if (!row) out.set(r.itemId, row = new Map());
    row.set(r.questionId, r.rating);
  }
  return out;
}
