/**
 * Sub-question coverage by type (Xie et al., "Do RAG systems cover what
 * matters?"): core, background and follow-up sub-questions, answered by the
 * response and/or retrieved in its chunks.
 *
 * @module
 */

/** The three sub-question types. */
export type SubquestionType = "core" | "background" | "follow-up";

/** One sub-question of one answer, as judged. */
export interface TypedCoverage {
  type: SubquestionType;
  /** The answer addresses it. */
  answered: boolean;
  /** At least one retrieved chunk addresses it. */
  retrieved: boolean;
  /** Share (0-1) of the retrieved chunks that address it; needed for #5. */
  chunkShare?: number;
  /** Where in the answer (0-100 % of its words) the addressing text starts; needed for #6. */
  position?: number;
}

/** The four cells P_t(answered?, retrieved?) of one type, as fractions of its sub-questions. */
export interface CoverageCells {
  answeredRetrieved: number;
  answeredNotRetrieved: number;
  notAnsweredRetrieved: number;
  notAnsweredNotRetrieved: number;
}

/** Result of {@linkcode subquestionTypeScores}; NaN where a quantity has no data. */
export interface SubquestionTypeScores {
  cells: Record<SubquestionType, CoverageCells>;
  /** #1 P_t(answered). */
  answered: Record<SubquestionType, number>;
  /** #2 P_t(retrieved). */
  retrieved: Record<SubquestionType, number>;
  /** #3 P_core(answered, retrieved) / P_core(retrieved). */
  answeredGivenRetrieved: number;
  /** #4 P_core(not answered, not retrieved) / P_core(not answered). */
  missedGivenNotAnswered: number;
  /** #5 mean chunk share of answered core sub-questions minus that of unanswered ones. */
  chunkShareGap: number;
  /** #6 pos_follow-up - (pos_core + pos_background) / 2 (mean start positions, 0-100). */
  positionGap: number;
}

const TYPES: readonly SubquestionType[] = ["core", "background", "follow-up"];

function meanOf(values: number[]): number {
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : NaN;
}

/**
 * Computes metrics #1-#6 over the judged sub-questions of a system's answers
 * (pooled over answers).
 *
 * @param items Every (answer, sub-question) judgment of the system.
 * @returns Cells, #1-#6.
 * @throws {RangeError} On an unknown type.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { subquestionTypeScores } from "@lib/metrics/mod.ts";
 * assert.equal(subquestionTypeScores([{ type: "core", answered: true, retrieved: true }]).answered.core, 1);
 * ```
 */
export function subquestionTypeScores(items: readonly TypedCoverage[]): SubquestionTypeScores {
  const byType = new Map<SubquestionType, TypedCoverage[]>(TYPES.map((t) => [t, []]));
  for (const item of items) {
    const list = byType.get(item.type);
    if (!list) {
      throw new RangeError(
        `Cannot score sub-question type "${item.type}": use core, background or follow-up`,
      );
    }
    list.push(item);
  }
  const share = (list: TypedCoverage[], f: (x: TypedCoverage) => boolean) =>
    list.length ? list.filter(f).length / list.length : NaN;
  const cells = {} as Record<SubquestionType, CoverageCells>;
  const answered = {} as Record<SubquestionType, number>;
  const retrieved = {} as Record<SubquestionType, number>;
  for (const [type, list] of byType) {
    cells[type] = {
      answeredRetrieved: share(list, (x) => x.answered && x.retrieved),
      answeredNotRetrieved: share(list, (x) => x.answered && !x.retrieved),
      notAnsweredRetrieved: share(list, (x) => !x.answered && x.retrieved),
      notAnsweredNotRetrieved: share(list, (x) => !x.answered && !x.retrieved),
    };
    answered[type] = share(list, (x) => x.answered);
    retrieved[type] = share(list, (x) => x.retrieved);
  }
  const core = byType.get("core")!;
  const c = cells.core;
  const shares = (a: boolean) =>
    core.filter((x) => x.answered === a && x.chunkShare !== undefined).map((x) => x.chunkShare!);
  const position = (t: SubquestionType) =>
    meanOf(
      byType.get(t)!.filter((x) => x.answered && x.position !== undefined).map((x) => x.position!),
    );
  return {
    cells,
    answered,
    retrieved,
    answeredGivenRetrieved: c.answeredRetrieved / retrieved.core,
    missedGivenNotAnswered: c.notAnsweredNotRetrieved / (1 - answered.core),
    chunkShareGap: meanOf(shares(true)) - meanOf(shares(false)),
    positionGap: position("follow-up") - (position("core") + position("background")) / 2,
  };
}
