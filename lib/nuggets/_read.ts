// Reads of the nugget tables shared by the steps.
import {
  type NuggetRow,
  readStoredNuggets,
  readTopics,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import { groupBy } from "./_windows.ts";

export type { NuggetRow };

/** Nuggets of one origin by topic, in creation order. */
export async function readNuggetRows(
  ws: WorkspaceLike,
  origin: string,
): Promise<Map<string, NuggetRow[]>> {
  return groupBy(await readStoredNuggets(ws, origin), (r) => r.topicId);
}

/** Each topic's query as shown to the model: its request, else its title, else its id. */
export async function topicQueries(ws: WorkspaceLike): Promise<Map<string, string>> {
  return new Map(
    (await readTopics(ws)).map((t) => [t.topicId, t.request || (t.title ?? t.topicId)]),
  );
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
