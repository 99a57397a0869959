/**
 * Key point recall and precision (Long2RAG, Qi et al. 2024).
 *
 * @module
 */

/** Key point judgments of one question's response. */
export interface KeyPointJudgments {
  /** Per key point of the question: whether the response entails it (only `yes` counts). */
  entailed: readonly boolean[];
  /**
   * Per statement of the response: whether the documents given to the response
   * support it. Omit when precision is not measured.
   */
  statedSupported?: readonly boolean[];
}

/** Scores of one question (NaN where undefined). */
export interface KeyPointQuestionScores {
  /** Entailed key points / key points; NaN without key points. */
  kpr: number;
  /** Supported statements / statements; NaN without statements. */
  kpp: number;
  /** Harmonic mean of KPR and KPP; 0 when both are 0; NaN when either is NaN. */
  kpf: number;
}

/** Result of {@linkcode keyPointScores}. */
export interface KeyPointScores extends KeyPointQuestionScores {
  /** Per question, in input order. */
  perQuestion: KeyPointQuestionScores[];
  /** Questions averaged per score (those where it is defined). */
  questions: { kpr: number; kpp: number; kpf: number };
}

const harmonic = (r: number, p: number) =>
  Number.isNaN(r) || Number.isNaN(p) ? NaN : r + p === 0 ? 0 : (2 * r * p) / (r + p);

/**
 * KPR, KPP and KPF per question and their means over questions. KPR = entailed
 * key points / key points (Qi et al., Long2RAG, 2024); KPP = statements of the response that
 * the documents given to it support / statements; KPF = their harmonic mean.
 * Each aggregate is the mean of the per-question values over the questions
 * where the value is defined: a question without key points has no KPR (left
 * out and counted), one without checked statements no KPP.
 *
 * @param questions One entry per question.
 * @returns Means, per-question values and the number of questions averaged.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyPointScores } from "@lib/metrics/mod.ts";
 * assert.equal(keyPointScores([{ entailed: [true, false] }, { entailed: [true] }]).kpr, 0.75);
 * ```
 */
export function keyPointScores(questions: readonly KeyPointJudgments[]): KeyPointScores {
  const perQuestion = questions.map((q): KeyPointQuestionScores => {
    const kpr = q.entailed.length ? q.entailed.filter(Boolean).length / q.entailed.length : NaN;
    const s = q.statedSupported ?? [];
    const kpp = s.length ? s.filter(Boolean).length / s.length : NaN;
    return { kpr, kpp, kpf: harmonic(kpr, kpp) };
  });
  const avg = (k: keyof KeyPointQuestionScores) => {
    const xs = perQuestion.map((p) => p[k]).filter((x) => !Number.isNaN(x));
    return { value: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN, n: xs.length };
  };
  const [r, p, f] = [avg("kpr"), avg("kpp"), avg("kpf")];
  return {
    kpr: r.value,
    kpp: p.value,
    kpf: f.value,
    perQuestion,
    questions: { kpr: r.n, kpp: p.n, kpf: f.n },
  };
}
