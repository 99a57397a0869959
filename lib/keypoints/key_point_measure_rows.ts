/**
 * Key point scores as rows of the measure table.
 *
 * @module
 */
import { KEYPOINT_MEASURES, type RunKeyPointScores } from "./score_key_points.ts";

/** A row of the workspace's `measures` table. */
export interface MeasureRecord {
  run: string;
  topicId: string;
  measure: string;
  name: string;
  cutoff: string;
  method: string;
  judge: string;
  source: string;
  value: number;
  topics: number | null;
}

/**
 * Turns run scores into `measures` rows: method `keypoints`, measures `KPR`,
 * `KPP`, `KPF`, `kp_supported`, `kp_omitted`, `kp_contradicted` (name = measure,
 * cutoff ''), one row per question (topic id = qid) and one `all` row whose
 * `topics` is the number of questions averaged. Undefined values (NaN) get no
 * row.
 *
 * @param scores From `scoreKeyPoints`.
 * @param opts `judge`: the entailment judge's name; `source`: key point origin
 *   (`extracted:<backend>` or `file:<basename>`).
 * @returns The rows.
 * @example
 * ```ts
 * import { keyPointMeasureRows, scoreKeyPoints } from "@lib/keypoints/mod.ts";
 * const scores = scoreKeyPoints([{ qid: "q", keypoints: [{ id: "k", text: "k", spans: [], mergedFrom: [] }] }],
 *   [{ qid: "q", runId: "r", keypointId: "k", label: "yes" }]);
 * keyPointMeasureRows(scores, { judge: "offline-lexical", source: "extracted:offline-salient" })
 *   .find((r) => r.measure === "KPR" && r.topicId === "all")?.value; // 1
 * ```
 */
export function keyPointMeasureRows(
  scores: readonly RunKeyPointScores[],
  opts: { judge: string; source: string },
): MeasureRecord[] {
  const base = { cutoff: "", method: "keypoints", judge: opts.judge, source: opts.source };
  return scores.flatMap((s) =>
    KEYPOINT_MEASURES.flatMap((m) => [
      ...s.perQuestion.filter((q) => !Number.isNaN(q[m])).map((q) => ({
        ...base,
        run: s.runId,
        topicId: q.qid,
        measure: m,
        name: m,
        value: q[m],
        topics: null,
      })),
      ...(Number.isNaN(s.aggregate[m]) ? [] : [{
        ...base,
        run: s.runId,
        topicId: "all",
        measure: m,
        name: m,
        value: s.aggregate[m],
        topics: s.topics[m],
      }]),
    ])
  );
}
