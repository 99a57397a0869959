/**
 * Merging key points across a question's documents, keeping the merge map.
 *
 * @module
 */
import type { KeyPoint, QuestionKeyPoints } from "@lib/formats/mod.ts";
import type { BackendCallOptions, KeyPointMerger, KeyPointProblem } from "./types.ts";

/** Result of {@linkcode mergeQuestionKeyPoints}. */
export interface MergedKeyPoints {
  /** Merged key points per question (ids `k1`, `k2`, ...), `mergedFrom` = original ids. */
  keypoints: QuestionKeyPoints[];
  /** Questions whose merge did not parse or failed: their originals were kept unmerged. */
  problems: KeyPointProblem[];
}

/**
 * Merges near-duplicate key points of each question with `merger`. Each
 * merged point lists its originals in `mergedFrom` (every original in exactly
 * one merged point), takes the document of its first original and the spans
 * (with their statuses) of all of them. When the merger gives no valid map, the
 * originals are kept one per merged point and the problem is recorded.
 *
 * @param originals Original key points per question (e.g. from `extractQuestionKeyPoints`).
 * @param merger Offline (lexical) or model-based backend.
 * @param opts `questions`: qid -> question text (for the model); signal and progress.
 * @returns Merged key points in input order, and problems.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lexicalMerger, mergeQuestionKeyPoints } from "@lib/keypoints/mod.ts";
 * const kp = (id: string, text: string) => ({ id, text, docId: "d", spans: [text], mergedFrom: [] });
 * const r = await mergeQuestionKeyPoints(
 *   [{ qid: "q", keypoints: [kp("o1", "The bridge opened in 1932."), kp("o2", "In 1932 the bridge opened.")] }],
 *   lexicalMerger(),
 * );
 * assert.deepEqual(r.keypoints[0].keypoints[0].mergedFrom, ["o1", "o2"]);
 * ```
 */
export async function mergeQuestionKeyPoints(
  originals: readonly QuestionKeyPoints[],
  merger: KeyPointMerger,
  opts: BackendCallOptions & { questions?: ReadonlyMap<string, string> } = {},
): Promise<MergedKeyPoints> {
  const results = await merger.merge(
    originals.map((q) => ({
      id: q.qid,
      question: opts.questions?.get(q.qid) ?? "",
      points: q.keypoints.map((k) => k.text),
    })),
    opts,
  );
  const problems: KeyPointProblem[] = [];
  const keypoints = originals.map((q, i): QuestionKeyPoints => {
    const r = results[i];
    if (r.status !== "ok") {
      problems.push({
        step: "merge",
        qid: q.qid,
        item: "",
        status: r.status,
        reason: `${r.error ?? ""}; originals kept unmerged`,
        ...(r.raw !== undefined ? { raw: r.raw } : {}),
      });
    }
    return {
      qid: q.qid,
      keypoints: r.groups.map((g, n): KeyPoint => {
        const from = g.sources.map((s) => q.keypoints[s]);
        const spans: string[] = [];
        const spanStatus: NonNullable<KeyPoint["spanStatus"]> = [];
        for (const o of from) {
          o.spans.forEach((s, j) => {
            if (spans.includes(s)) return;
            spans.push(s);
            spanStatus.push(o.spanStatus?.[j] ?? "missing");
          });
        }
        const docId = from[0].docId;
        const checked = from.every((o) => o.spanStatus);
        return {
          id: `k${n + 1}`,
          text: g.text,
          ...(docId !== undefined ? { docId } : {}),
          spans,
          mergedFrom: from.map((o) => o.id),
          ...(checked ? { spanStatus } : {}),
        };
      }),
    };
  });
  return { keypoints, problems };
}
