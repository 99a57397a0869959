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
  /** Questions with key points but no label at all for this run (scored 0, or left out with `unanswered: "skip"`). */
  missing: string[];
  /** Key points without a label in a question that has labels (not covered). */
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
 * defined. Questions without key points are left out of KPR and the rates; a
 * question with key points but no label for a run scores 0 and is listed in
 * `missing`; with `unanswered: "skip"` it is left out instead (the run has no
 * answer there), so a run without any label has no value at all.
 *
 * @param keypoints Key points per question (those with none are not scored).
 * @param labels Labels of every run.
 * @param opts `statements` (KPP), `runs` (default: the runs in labels and statements, in order),
 *   `unanswered`: `zero` (default) scores a question without labels 0, `skip` leaves it out.
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
    unanswered?: "zero" | "skip";
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
    const unanswered = (qid: string) => (points.get(qid) ?? []).length > 0 && !mine.has(qid);
    for (const qid of qids) if (unanswered(qid)) missing.push(qid);
    const kept = opts.unanswered === "skip" ? qids.filter((q) => !unanswered(q)) : qids;
    const perQuestion = kept.map((qid): QuestionScores => {
      const ks = points.get(qid) ?? [];
      const got = mine.get(qid);
      if (got) unlabelled += ks.filter((k) => !got.has(k.id)).length;
      const three = ks.map((k) => THREE_WAY[got?.get(k.id) ?? ""] ?? "omitted");
      const s = keyPointScores([{
        entailed: three.map((l) => l === "supported"),
        statedSupported: stated.get(qid),
      }]);
      const rates = ks.length
        ? keyPointRates(three)
        : { supported: NaN, omitted: NaN, contradicted: NaN };
      return {
        qid,
        KPR: s.kpr,
        KPP: s.kpp,
        KPF: s.kpf,
        kp_supported: rates.supported,
        kp_omitted: rates.omitted,
        kp_contradicted: rates.contradicted,
      };
    });
    const aggregate = {} as Record<KeyPointMeasure, number>;
    const topics = {} as Record<KeyPointMeasure, number>;
    for (const m of KEYPOINT_MEASURES) {
      const xs = perQuestion.map((q) => q[m]).filter((x) => !Number.isNaN(x));
      aggregate[m] = xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
      topics[m] = xs.length;
    }
    return { runId, perQuestion, aggregate, topics, missing, unlabelled };
  });
}
