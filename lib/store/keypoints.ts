/**
 * The key point tables of key point recall: reads and writes of the stored key
 * points (`keypoints`, both levels, by source).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** A stored key point. */
export interface KeypointRow {
  topicId: string;
  keypointId: string;
  text: string;
  docId: string | null;
  spans: string[];
  spanStatus: ("exact" | "normalized" | "missing")[] | null;
  mergedFrom: string[];
}

/**
 * The origins that have key points of one level, in name order.
 *
 * @param ws The workspace.
 * @param level `original` or `merged`.
 * @returns The sources (`extracted:<backend>`, `file:<basename>`).
 * @example
 * ```ts
 * import { readKeypointSources } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await readKeypointSources(ws, "merged"); // ["extracted:offline"]
 * ```
 */
export async function readKeypointSources(
  ws: WorkspaceLike,
  level: "original" | "merged",
): Promise<string[]> {
  return (await ws.query<{ source: string }>(
    "SELECT DISTINCT source FROM keypoints WHERE level = $1 ORDER BY source",
    [level],
  )).map((r) => r.source);
}

/**
 * The key points of one level and source (in no particular order).
 *
 * @param ws The workspace.
 * @param level `original` or `merged`.
 * @param source The key point origin.
 * @returns The rows, nulls kept.
 * @example
 * ```ts
 * import { readKeypointRows } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * (await readKeypointRows(ws, "merged", "extracted:offline")).length;
 * ```
 */
export async function readKeypointRows(
  ws: WorkspaceLike,
  level: "original" | "merged",
  source: string,
): Promise<KeypointRow[]> {
  return await ws.query<KeypointRow>(
    `SELECT topic_id, keypoint_id, text, doc_id, spans, span_status, merged_from FROM keypoints
     WHERE level = $1 AND source = $2`,
    [level, source],
  );
}

/**
 * Stores key points (camelCase `keypoints` records), replacing those of the same
 * topic, id, level and source.
 *
 * @param ws The workspace.
 * @param rows The records.
 * @example
 * ```ts
 * import { writeKeypointRows } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await writeKeypointRows(ws, [{ topicId: "t1", keypointId: "k1", level: "merged", text: "A.", spans: [], mergedFrom: [], source: "file:kp.jsonl" }]);
 * ```
 */
export async function writeKeypointRows(ws: WorkspaceLike, rows: readonly object[]): Promise<void> {
  if (rows.length) await ws.upsert("keypoints", rows);
}
