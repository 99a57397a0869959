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
   * Per key point stated in the response: whether the retrieved documents support it.
   * Omit when precision is not measured.
   */
  statedSupported?: readonly boolean[];
}

/** Result of {@linkcode keyPointScores}. */
export interface KeyPointScores {
  /** Mean over questions of entailed / key points (questions without key points skipped). */
  kpr: number;
  /** Supported stated key points / stated key points, pooled over questions (NaN if none). */
  kpp: number;
  /** Harmonic mean of KPR and KPP (0 when both are 0; NaN when KPP is). */
  kpf: number;
}

/**
 * KPR, KPP and KPF over a set of questions: KPR averages per-question recall
 * of key points; KPP is the share of the response's stated key points that the
 * retrieved documents support; KPF their harmonic mean.
 *
 * @param questions One entry per question.
 * @returns The three scores.
 * @example
 * ```ts
 * import { keyPointScores } from "@lib/metrics/mod.ts";
 * keyPointScores([{ entailed: [true, false] }, { entailed: [true] }]).kpr; // 0.75
 * ```
 */
export function keyPointScores(questions: readonly KeyPointJudgments[]): KeyPointScores {
  let recallSum = 0, recallN = 0, stated = 0, supported = 0;
  for (const q of questions) {
    if (q.entailed.length) {
      recallSum += q.entailed.filter(Boolean).length / q.entailed.length;
      recallN++;
    }
    for (const s of q.statedSupported ?? []) {
      stated++;
      if (s) supported++;
    }
  }
  const kpr = recallN ? recallSum / recallN : NaN;
  const kpp = stated ? supported / stated : NaN;
  const kpf = kpr + kpp === 0 ? 0 : (2 * kpr * kpp) / (kpr + kpp);
  return { kpr, kpp, kpf };
}
