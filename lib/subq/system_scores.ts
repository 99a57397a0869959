/**
 * Scores of one system from typed coverage judgments: the shares by type, #1-#6
 * and the answer rating (the one evaluator of the method; the CLI, the measure
 * stage and the analyses all use it).
 *
 * @module
 */
import type { TypedCoverageLine } from "@lib/formats/mod.ts";
import { answerRating, type SubquestionType, subquestionTypeScores } from "@lib/metrics/mod.ts";
import { ANSWER_WEIGHTS } from "@lib/metrics/mod.ts";

const TYPES = ["core", "background", "follow-up"] as const;

/** A share by type plus `all` (every sub-question whatever its type); null where there is none. */
export type TypeShares = Record<SubquestionType | "all", number | null>;

/** Scores of one system. */
export interface SystemScores {
  /** #1 answered share by type and over all sub-questions. */
  answered: TypeShares;
  /** #2 retrieved share; absent unless every line has `retrieved`. */
  retrieved?: TypeShares;
  counts: Record<SubquestionType, number>;
  /** #3-#6; null where the inputs are missing or the denominator is empty. */
  metrics: { m3: number | null; m4: number | null; m5: number | null; m6: number | null };
  /** Mean over the system's questions of each answer's weighted type coverage. */
  rating: number | null;
  /** Questions (answers) scored. */
  questions: number;
}

const num = (v: number) => (Number.isFinite(v) ? v : null);

/**
 * Scores one system's judgments (pooled over its answers, as the fractions of
 * METRICS.md): #1 and #2 by type and over all sub-questions, #3-#6 over core
 * (and, for #6, follow-up and background) sub-questions, and the rating = mean
 * over questions of sum_t w_t x coverage_t. #2-#4 need `retrieved` on every
 * line, #5 `chunkShare`, #6 `position`; a metric without its inputs, or with
 * an empty denominator, is null (never 0 or NaN).
 *
 * @param lines The system's judgments (one per question and sub-question).
 * @param opts `weights` (default core 1, background 0.5, follow-up -1).
 * @returns The scores.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemScores } from "@lib/subq/mod.ts";
 * const line = { questionId: "q", subQuestion: "a?", type: "core" as const, system: "s", answered: true };
 * assert.equal(systemScores([line]).answered.all, 1);
 * ```
 */
export function systemScores(
  lines: readonly TypedCoverageLine[],
  opts: { weights?: Readonly<Record<SubquestionType, number>> } = {},
): SystemScores {
  const hasRetrieved = lines.length > 0 && lines.every((l) => l.retrieved !== undefined);
  const items = lines.map((l) => ({
    type: l.type,
    answered: l.answered,
    retrieved: l.retrieved ?? false,
    ...(l.chunkShare !== undefined ? { chunkShare: l.chunkShare } : {}),
    ...(l.position !== undefined ? { position: l.position } : {}),
  }));
  const s = subquestionTypeScores(items);
  const all = (k: "answered" | "retrieved") =>
    lines.length ? lines.filter((l) => l[k]).length / lines.length : NaN;
  const shares = (k: "answered" | "retrieved"): TypeShares => {
    const v = k === "answered" ? s.answered : s.retrieved;
    return {
      core: num(v.core),
      background: num(v.background),
      "follow-up": num(v["follow-up"]),
      all: num(all(k)),
    };
  };
  const questions = [...new Set(lines.map((l) => l.questionId))];
  const ratings = questions.map((q) =>
    answerRating(items.filter((_, i) => lines[i].questionId === q), {
      weights: opts.weights ?? ANSWER_WEIGHTS,
    })
  );
  return {
    answered: shares("answered"),
    ...(hasRetrieved ? { retrieved: shares("retrieved") } : {}),
    counts: Object.fromEntries(
      TYPES.map((t) => [t, lines.filter((l) => l.type === t).length]),
    ) as SystemScores["counts"],
    metrics: {
      m3: hasRetrieved ? num(s.answeredGivenRetrieved) : null,
      m4: hasRetrieved ? num(s.missedGivenNotAnswered) : null,
      m5: lines.some((l) => l.chunkShare !== undefined) ? num(s.chunkShareGap) : null,
      m6: lines.some((l) => l.position !== undefined) ? num(s.positionGap) : null,
    },
    rating: ratings.length ? ratings.reduce((a, r) => a + r, 0) / ratings.length : null,
    questions: questions.length,
  };
}
