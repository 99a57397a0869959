/**
 * Writers of the key point files (the inverse of `parseKeyPoints` and
 * `parseEntailments`), so key points and labels made here can be judged or
 * scored elsewhere.
 *
 * @module
 */
import type { Entailments, QuestionKeyPoints } from "./key_points.ts";

/**
 * Formats key points as JSONL, one line per question, in the order given:
 * `{"qid", "keypoints": [{"id", "text", "doc_id", "spans", "merged_from", "span_status"}]}`
 * (`doc_id` and `span_status` only when known).
 *
 * @param records Key points per question.
 * @returns The JSONL text (ends with a newline; empty for no records).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatKeyPoints } from "@lib/formats/mod.ts";
 * assert.equal(formatKeyPoints([{ qid: "q1", keypoints: [{ id: "k1", text: "A.", spans: ["A."], mergedFrom: [] }] }]), '{"qid":"q1","keypoints":[{"id":"k1","text":"A.","spans":["A."],"merged_from":[]}]}\n');
 * ```
 */
export function formatKeyPoints(records: readonly QuestionKeyPoints[]): string {
  return records.map((q) =>
    JSON.stringify({
      qid: q.qid,
      keypoints: q.keypoints.map((k) => ({
        id: k.id,
        text: k.text,
        ...(k.docId !== undefined ? { doc_id: k.docId } : {}),
        spans: k.spans,
        merged_from: k.mergedFrom,
        ...(k.spanStatus ? { span_status: k.spanStatus } : {}),
      })),
    }) + "\n"
  ).join("");
}

/**
 * Formats entailment labels as JSONL, one line per (question, run):
 * `{"qid", "run_id", "labels": [{"keypoint_id", "label", "reason"}]}`.
 *
 * @param records Labels per question and run (`line` is ignored).
 * @returns The JSONL text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatEntailments } from "@lib/formats/mod.ts";
 * assert.equal(formatEntailments([{ qid: "q1", runId: "r", labels: [{ keypointId: "k1", label: "yes" }] }]), '{"qid":"q1","run_id":"r","labels":[{"keypoint_id":"k1","label":"yes"}]}\n');
 * ```
 */
export function formatEntailments(records: readonly Omit<Entailments, "line">[]): string {
  return records.map((e) =>
    JSON.stringify({
      qid: e.qid,
      run_id: e.runId,
      labels: e.labels.map((l) => ({
        keypoint_id: l.keypointId,
        label: l.label,
        ...(l.reason !== undefined ? { reason: l.reason } : {}),
      })),
    }) + "\n"
  ).join("");
}
