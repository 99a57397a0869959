/**
 * Key point scores as rows of the measure table.
 *
 * @module
 */
import { measureRow } from "@lib/store/mod.ts";
import { formatTopicSet, valueTopicSet } from "@lib/metrics/mod.ts";
import type { MeasureRow } from "@lib/types/mod.ts";
import { KEYPOINT_MEASURES, type RunKeyPointScores } from "./score_key_points.ts";

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
 * import assert from "node:assert/strict";
 * import { keyPointMeasureRows, scoreKeyPoints } from "@lib/keypoints/mod.ts";
 * const scores = scoreKeyPoints([{ qid: "q", keypoints: [{ id: "k", text: "k", spans: [], mergedFrom: [] }] }],
 *   [{ qid: "q", runId: "r", keypointId: "k", label: "yes" }]);
 * const rows = keyPointMeasureRows(scores, { judge: "offline-lexical", source: "extracted:offline-salient" });
 * assert.equal(rows.find((r) => r.measure === "KPR" && r.topicId === "all")?.value, 1);
 * ```
 */
export function keyPointMeasureRows(
  scores: readonly RunKeyPointScores[],
  opts: { judge: string; source: string },
): MeasureRow[] {
  const base = { method: "keypoints", judge: opts.judge, source: opts.source };
  return scores.flatMap((s) =>
    KEYPOINT_MEASURES.flatMap((m) => [
      ...s.perQuestion.filter((q) => !Number.isNaN(q[m])).map((q) =>
        measureRow({
          ...base,
          run: s.runId,
          topicId: q.qid,
          measure: m,
          value: q[m],
          topicSet: valueTopicSet({ measure: m, topicId: q.qid, topics: null, tau: 3 }),
        })
      ),
      ...(Number.isNaN(s.aggregate[m]) ? [] : [
        measureRow({
          ...base,
          run: s.runId,
          topicId: "all",
          measure: m,
          value: s.aggregate[m],
          topics: s.topics[m],
          // The questions with a value of this measure.
          topicSet: formatTopicSet({ kind: "judged", n: s.topics[m] }),
        }),
      ]),
    ])
  );
}
