/**
 * Reads of the nugget tables (`nuggets`, `nugget_assignments`,
 * `nugget_passages`) for the nugget analyses.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** A run's support of vital or okay nuggets. */
export interface NuggetSupport {
  run: string;
  /** `vital`, or `okay` for every other importance. */
  importance: string;
  /** Mean credit per assignment: support 1, partial support 0.5, else 0. */
  credit: number;
  /** Assignments whose label failed. */
  failed: number;
}

/**
 * Support credit and failed labels of one judge's assignments of nuggets of one
 * origin, per run and importance (vital, okay).
 *
 * @param ws The workspace.
 * @param origin The nugget origin (e.g. `created:offline`).
 * @param judge The assignment judge.
 * @returns The rows, in no particular order.
 * @example
 * ```ts
 * import { readNuggetSupport } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const rows = await readNuggetSupport(ws, "created:offline", "lexical-nuggets");
 * ```
 */
export async function readNuggetSupport(
  ws: WorkspaceLike,
  origin: string,
  judge: string,
): Promise<NuggetSupport[]> {
  return await ws.query<NuggetSupport>(
    `SELECT a.run, CASE WHEN n.importance = 'vital' THEN 'vital' ELSE 'okay' END AS importance,
       avg(CASE a.label WHEN 'support' THEN 1.0 WHEN 'partial_support' THEN 0.5 ELSE 0.0 END) AS credit,
       count(*) FILTER (WHERE a.label = 'failed')::INT AS failed
     FROM nugget_assignments a JOIN nuggets n USING (topic_id, origin, ordinal)
     WHERE a.origin = $1 AND a.judge = $2 GROUP BY ALL`,
    [origin, judge],
  );
}

/** One topic's nuggets: passages shown, windows, nuggets by importance, kept. */
export interface NuggetTopicCounts {
  topicId: string;
  /** Passages shown to the nugget creator (0 for imported nuggets). */
  passages: number;
  /** Windows of passages shown. */
  windows: number;
  nuggets: number;
  vital: number;
  okay: number;
  /** Nuggets whose importance label failed. */
  failed: number;
  /** Nuggets not marked as dropped. */
  kept: number;
}

/**
 * Counts of the nuggets of one origin per topic.
 *
 * @param ws The workspace.
 * @param origin The nugget origin.
 * @returns One row per topic with nuggets, in no particular order.
 * @example
 * ```ts
 * import { readNuggetTopicCounts } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const rows = await readNuggetTopicCounts(ws, "created:offline");
 * ```
 */
export async function readNuggetTopicCounts(
  ws: WorkspaceLike,
  origin: string,
): Promise<NuggetTopicCounts[]> {
  return await ws.query<NuggetTopicCounts>(
    `SELECT n.topic_id AS "topicId",
       coalesce(any_value(p.passages), 0)::INT AS passages, coalesce(any_value(p.windows), 0)::INT AS windows,
       count(*)::INT AS nuggets,
       count(*) FILTER (WHERE importance = 'vital')::INT AS vital,
       count(*) FILTER (WHERE importance = 'okay')::INT AS okay,
       count(*) FILTER (WHERE importance = 'failed')::INT AS failed,
       count(*) FILTER (WHERE kept IS NOT false)::INT AS kept
     FROM nuggets n LEFT JOIN (
       SELECT topic_id, count(*) AS passages, count(DISTINCT window_index) AS windows
       FROM nugget_passages WHERE origin = $1 GROUP BY topic_id) p ON p.topic_id = n.topic_id
     WHERE n.origin = $1 GROUP BY n.topic_id`,
    [origin],
  );
}
