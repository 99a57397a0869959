// Reads of the nugget tables shared by the steps.
import type { WorkspaceLike } from "@lib/store/mod.ts";
import { groupBy } from "./_windows.ts";

/** A stored nugget. */
export interface NuggetRow {
  topicId: string;
  origin: string;
  ordinal: number;
  text: string;
  importance: "vital" | "okay" | "failed" | null;
  importanceBy: string | null;
  kept: boolean | null;
  importanceCall: string | null;
  importanceRaw: string | null;
  call: string | null;
}

/** Nuggets of one origin by topic, in creation order. */
export async function readNuggetRows(
  ws: WorkspaceLike,
  origin: string,
): Promise<Map<string, NuggetRow[]>> {
  const rows = await ws.query<NuggetRow>(
    `SELECT topic_id AS "topicId", origin, ordinal, text, importance, importance_by AS "importanceBy",
       kept, importance_call AS "importanceCall", importance_raw AS "importanceRaw", call
     FROM nuggets WHERE origin = $1 ORDER BY topic_id, ordinal`,
    [origin],
  );
  return groupBy(rows.map((r) => ({ ...r, ordinal: Number(r.ordinal) })), (r) => r.topicId);
}

/** Importance rank for sorting: vital, okay, then unlabelled or failed. */
const RANK = { vital: 0, okay: 1, failed: 2 } as const;

/** The nuggets an answer is judged on: kept ones, vital first, then in creation order. */
export function judgedNuggets(rows: readonly NuggetRow[]): NuggetRow[] {
  return rows.filter((r) => r.kept !== false).sort((a, b) =>
    (a.importance ? RANK[a.importance] : 2) - (b.importance ? RANK[b.importance] : 2) ||
    a.ordinal - b.ordinal
  );
}

/** Every distinct origin stored, with its nugget count. */
export async function nuggetOrigins(ws: WorkspaceLike): Promise<string[]> {
  const rows = await ws.query<{ origin: string }>(
    `SELECT DISTINCT origin FROM nuggets ORDER BY origin`,
  );
  return rows.map((r) => r.origin);
}
