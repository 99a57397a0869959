/**
 * Entailment of each key point of a question by each run's response.
 *
 * @module
 */
import type { QuestionKeyPoints } from "@lib/formats/mod.ts";
import type {
  BackendCallOptions,
  EntailmentJudge,
  EntailmentLabel,
  KeyPointProblem,
} from "./types.ts";

/** A run's response to a question. */
export interface KeyPointResponse {
  qid: string;
  runId: string;
  text: string;
}

/** The verdict on one key point for one response; `label` null = no usable answer. */
export interface KeyPointVerdict {
  qid: string;
  runId: string;
  keypointId: string;
  label: EntailmentLabel | null;
  reason: string;
  snippet: string;
}

/** Result of {@linkcode judgeKeyPoints}. */
export interface JudgedKeyPoints {
  verdicts: KeyPointVerdict[];
  /** Verdicts without a label (unparseable or failed): not covered, counted here. */
  problems: KeyPointProblem[];
  /** Responses to questions that have no key point entry (not judged). */
  unknownQuestions: string[];
}

/**
 * Judges every key point of a response's question with `judge`: yes / no /
 * neutral with a reason and snippet (only `yes` counts as covered; `no`
 * means "does not entail"; the three-way variant reads yes as supported, the
 * separate `contradicts` label as contradicted, no and neutral as omitted). A pair without a usable answer keeps a null label and is recorded.
 *
 * @param keypoints Key points per question.
 * @param responses Responses per (question, run).
 * @param judge Offline (lexical) or model-based entailment judge.
 * @param opts Signal and progress.
 * @returns Verdicts in response then key point order, problems, unknown questions.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeKeyPoints, lexicalEntailer } from "@lib/keypoints/mod.ts";
 * const points = [{ qid: "q", keypoints: [{ id: "k1", text: "The bridge opened in 1932.", spans: [], mergedFrom: [] }] }];
 * const r = await judgeKeyPoints(points, [{ qid: "q", runId: "r", text: "It opened in 1932, the bridge." }], lexicalEntailer());
 * assert.equal(r.verdicts[0].label, "yes");
 * ```
 */
export async function judgeKeyPoints(
  keypoints: readonly QuestionKeyPoints[],
  responses: readonly KeyPointResponse[],
  judge: EntailmentJudge,
  opts: BackendCallOptions = {},
): Promise<JudgedKeyPoints> {
  const byQid = new Map(keypoints.map((q) => [q.qid, q.keypoints]));
  const unknownQuestions = [
    ...new Set(responses.filter((r) => !byQid.has(r.qid)).map((r) => r.qid)),
  ];
  const jobs = responses.filter((r) => byQid.has(r.qid)).flatMap((r) =>
    byQid.get(r.qid)!.map((k) => ({ r, k }))
  );
  const results = await judge.judge(
    jobs.map((j, i) => ({ id: String(i), keypoint: j.k.text, response: j.r.text })),
    opts,
  );
  const problems: KeyPointProblem[] = [];
  const verdicts = jobs.map(({ r, k }, i): KeyPointVerdict => {
    const v = results[i];
    if (v.status !== "ok") {
      problems.push({
        step: "entail",
        qid: r.qid,
        item: r.runId,
        status: v.status,
        reason: `key point ${k.id}: ${v.reason}`,
        ...(v.raw !== undefined ? { raw: v.raw } : {}),
      });
    }
    return {
      qid: r.qid,
      runId: r.runId,
      keypointId: k.id,
      label: v.label,
      reason: v.reason,
      snippet: v.snippet,
    };
  });
  return { verdicts, problems, unknownQuestions };
}
