/**
 * Reads of the key point tables (`keypoints`, `keypoint_problems`) for the
 * extraction analyses.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** A stored key point (original or merged) with its span checks. */
export interface StoredKeyPoint {
  topicId: string;
  keypointId: string;
  /** `original` (extracted from one document) or `merged`. */
  level: string;
  text: string;
  docId: string | null;
  /** Per span: `exact`, `normalized` or `missing`; null when not checked. */
  spanStatus: string[] | null;
  /** Ids of the originals a merged point stands for. */
  mergedFrom: string[];
  spans: string[];
}

/**
 * The key points of one source (e.g. `extracted:offline`).
 *
 * @param ws The workspace.
 * @param source The key point source.
 * @returns The key points, in the table's order.
 * @example
 * ```ts
 * import { readKeyPointsOfSource } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const points = await readKeyPointsOfSource(ws, "extracted:offline");
 * ```
 */
export async function readKeyPointsOfSource(
  ws: WorkspaceLike,
  source: string,
): Promise<StoredKeyPoint[]> {
  return await ws.query<StoredKeyPoint>(
    `SELECT topic_id, keypoint_id, level, text, doc_id, span_status, merged_from, spans FROM keypoints
     WHERE source = $1`,
    [source],
  );
}

/**
 * Unusable answers of the extract and merge steps, counted per topic.
 *
 * @param ws The workspace.
 * @returns One row per topic with problems, in no particular order.
 * @example
 * ```ts
 * import { countKeyPointProblems } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const problems = await countKeyPointProblems(ws); // e.g. [{ topicId: "t1", n: 2 }]
 * ```
 */
export async function countKeyPointProblems(
  ws: WorkspaceLike,
): Promise<{ topicId: string; n: number }[]> {
  return await ws.query<{ topicId: string; n: number }>(
    "SELECT topic_id, count(*)::INT AS n FROM keypoint_problems WHERE step IN ('extract', 'merge') GROUP BY ALL",
  );
}
