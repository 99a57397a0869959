/**
 * KPR, KPP, KPF and the three-way rates per question and run.
 *
 * @module
 */
import type { QuestionKeyPoints } from "@lib/formats/mod.ts";
import { type KeyPointLabel, keyPointRates, keyPointScores } from "@lib/metrics/mod.ts";

/** The measures of key point recall, as stored in the measure table. */
export const KEYPOINT_MEASURES = [
  "KPR",
  "KPP",
  "KPF",
  "kp_supported",
  "kp_omitted",
  "kp_contradicted",
] as const;

/** One of {@linkcode KEYPOINT_MEASURES}. */
export type KeyPointMeasure = (typeof KEYPOINT_MEASURES)[number];

/** A key point label of a run's response (binary or three-way); null = no usable answer. */
export interface LabelInput {
  qid: string;
  runId: string;
  keypointId: string;
  label: string | null;
}

/** Whether a statement of a run's response is supported by its documents. */
export interface StatementInput {
  qid: string;
  runId: string;
  supported: boolean;
}

/** Scores of one question for one run (NaN where undefined). */
export type QuestionScores = { qid: string } & Record<KeyPointMeasure, number>;

/** Scores of one run. */
export interface RunKeyPointScores {
  runId: string;
  perQuestion: QuestionScores[];
  /** Means over the questions where each measure is defined. */
  aggregate: Record<KeyPointMeasure, number>;
  /** Questions averaged per measure. */
  topics: Record<KeyPointMeasure, number>;
  /**
   * Questions with key points of which some has no usable label for this run (no
   * label, or the judge's answer was unusable): they have no KPR, no KPF and no
   * rates, and the run has no mean of those measures.
   */
  missing: string[];
  /** Key points without a usable label, over every question. */
  unlabelled: number;
}

const THREE_WAY: Record<string, KeyPointLabel> = {
  yes: "supported",
  supported: "supported",
  contradicts: "contradicted",
  contradicted: "contradicted",
};

/**
 * Scores runs from key points, labels and (optionally) statement checks.
 * Per question with at least one key point: KPR = covered / key points
 * (`yes` or `supported` covers); the three-way rates read yes as supported,
 * the separate `contradicts` label as contradicted, and no (Long2RAG: does
 * not entail), neutral, a missing or unusable label as omitted. KPP
 * = supported statements / statements (questions with checked statements); KPF
 * the harmonic mean. Aggregates are means over the questions where each is
 * defined. Questions without key points are left out of KPR and the rates
 * (the stated rule of the question set).
 *
 * One rule for every route (`crux keypoints score` and the pipeline's measure
 * stage): a key point without a usable label (no label, or an unusable answer
 * of the judge) has no entailment decision, so it is neither covered nor
 * omitted. Its question has no KPR, KPF or rates (KPP, from statements, stays)
 * and is listed in `missing`, and the run has no mean of those measures: a
 * mean over the other questions is not KPR of the run, and a 0 is not what
 * was measured.
 *
 * @param keypoints Key points per question (those with none are not scored).
 * @param labels Labels of every run.
 * @param opts `statements` (KPP), `runs` (default: the runs in labels and statements, in order).
 * @returns One entry per run.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreKeyPoints } from "@lib/keypoints/mod.ts";
 * const kp = (id: string) => ({ id, text: id, spans: [], mergedFrom: [] });
 * const [r] = scoreKeyPoints([{ qid: "q", keypoints: [kp("k1"), kp("k2")] }], [
 *   { qid: "q", runId: "r", keypointId: "k1", label: "yes" },
 *   { qid: "q", runId: "r", keypointId: "k2", label: "no" },
 * ]);
 * assert.deepEqual([r.aggregate.KPR, r.aggregate.kp_omitted], [0.5, 0.5]);
 * ```
 */
export function scoreKeyPoints(
  keypoints: readonly QuestionKeyPoints[],
  labels: readonly LabelInput[],
  opts: {
    statements?: readonly StatementInput[];
    runs?: readonly string[];
  } = {},
): RunKeyPointScores[] {
  const statements = opts.statements ?? [];
  const runs = opts.runs ??
    [...new Set([...labels.map((l) => l.runId), ...statements.map((s) => s.runId)])];
  const scored = keypoints.filter((q) => q.keypoints.length);
  return runs.map((runId): RunKeyPointScores => {
    const mine = new Map<string, Map<string, string | null>>();
    for (const l of labels) {
      if (l.runId !== runId) continue;
      if (!mine.has(l.qid)) mine.set(l.qid, new Map());
      mine.get(l.qid)!.set(l.keypointId, l.label);
    }
    const stated = new Map<string, boolean[]>();
    for (const s of statements) {
      if (s.runId === runId) stated.set(s.qid, [...(stated.get(s.qid) ?? []), s.supported]);
    }
    const missing: string[] = [];
    let unlabelled = 0;
    const qids = [
      ...scored.map((q) => q.qid),
      ...[...stated.keys()].filter((q) => !scored.some((s) => s.qid === q)),
    ];
    const points = new Map(scored.map((q) => [q.qid, q.keypoints]));
    const perQuestion = qids.map((qid): QuestionScores => {
      const ks = points.get(qid) ?? [];
      const got = mine.get(qid);
      const lacking = ks.filter((k) => (got?.get(k.id) ?? null) === null).length;
      unlabelled += lacking;
      if (lacking) missing.push(qid);
      const three = ks.map((k) => THREE_WAY[got?.get(k.id) ?? ""] ?? "omitted");
      const s = keyPointScores([{
        entailed: three.map((l) => l === "supported"),
        statedSupported: stated.get(qid),
      }]);
      const rates = ks.length && !lacking
        ? keyPointRates(three)
        : { supported: NaN, omitted: NaN, contradicted: NaN };
      return {
        qid,
        KPR: lacking ? NaN : s.kpr,
        KPP: s.kpp,
        KPF: lacking ? NaN : s.kpf,
        kp_supported: rates.supported,
        kp_omitted: rates.omitted,
        kp_contradicted: rates.contradicted,
      };
    });
    const aggregate = {} as Record<KeyPointMeasure, number>;
    const topics = {} as Record<KeyPointMeasure, number>;
    for (const m of KEYPOINT_MEASURES) {
      const xs = perQuestion.map((q) => q[m]).filter((x) => !Number.isNaN(x));
      // A question without its labels leaves the run without a mean (KPP needs none).
      const incomplete = m !== "KPP" && missing.length > 0;
      aggregate[m] = xs.length && !incomplete ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
      topics[m] = xs.length;
    }
    return { runId, perQuestion, aggregate, topics, missing, unlabelled };
  });
}
