/**
 * Nugget scores of the TREC 2024 RAG track (AutoNuggetizer).
 *
 * @module
 */

/** One nugget of one answer: its importance and its assignment. */
export interface NuggetJudgment {
  importance: "vital" | "okay";
  /** `failed` (the judge's output could not be parsed) counts as `not_support`. */
  assignment: "support" | "partial_support" | "not_support" | "failed";
}

/** The four nugget scores of an answer (or their means over answers). */
export interface NuggetScores {
  strictVital: number;
  vital: number;
  strictAll: number;
  all: number;
}

/**
 * Scores one answer (Pradeep et al., TREC 2024 RAG track):
 * `strictVital` = vital supported / vital; `vital` = (vital supported + 0.5 x
 * vital partially supported) / vital; `strictAll` and `all` the same over all
 * nuggets. No (vital) nuggets: 0.
 *
 * @param nuggets The answer's nuggets with their assignments.
 * @returns The four scores.
 * @throws {RangeError} On an unknown importance or assignment label.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nuggetScores } from "@lib/metrics/mod.ts";
 * assert.deepEqual(nuggetScores([
 *   { importance: "vital", assignment: "support" },
 *   { importance: "vital", assignment: "partial_support" },
 *   { importance: "okay", assignment: "not_support" },
 * ]), { strictVital: 0.5, vital: 0.75, strictAll: 1/3, all: 0.5 });
 * ```
 */
export function nuggetScores(nuggets: readonly NuggetJudgment[]): NuggetScores {
  let vital = 0, vitalFull = 0, vitalPartial = 0, full = 0, partial = 0;
  for (const n of nuggets) {
    if (n.importance !== "vital" && n.importance !== "okay") {
      throw new RangeError(`Cannot score nugget importance "${n.importance}": use vital or okay`);
    }
    const credit = n.assignment === "support" ? 1 : n.assignment === "partial_support" ? 0.5 : 0;
    if (credit === 0 && n.assignment !== "not_support" && n.assignment !== "failed") {
      throw new RangeError(
        `Cannot score nugget assignment "${n.assignment}": use support, partial_support, not_support or failed`,
      );
    }
    if (credit === 1) full++;
    if (credit === 0.5) partial++;
    if (n.importance === "vital") {
      vital++;
      if (credit === 1) vitalFull++;
      if (credit === 0.5) vitalPartial++;
    }
  }
  const ratio = (x: number, n: number) => n ? x / n : 0;
  return {
    strictVital: ratio(vitalFull, vital),
    vital: ratio(vitalFull + 0.5 * vitalPartial, vital),
    strictAll: ratio(full, nuggets.length),
    all: ratio(full + 0.5 * partial, nuggets.length),
  };
}

/**
 * A run's nugget scores: the mean of {@linkcode nuggetScores} over its answers.
 *
 * @param answers One nugget list per answer (topic).
 * @returns The mean scores (all 0 for no answers).
 * @throws {RangeError} As {@linkcode nuggetScores}.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { meanNuggetScores } from "@lib/metrics/mod.ts";
 * const scores = meanNuggetScores([
 *   [{ importance: "vital", assignment: "support" }],
 *   [{ importance: "vital", assignment: "partial_support" }, { importance: "okay", assignment: "support" }],
 * ]);
 * assert.equal(scores.vital, 0.75); // (1 + 0.5) / 2
 * ```
 */
export function meanNuggetScores(answers: readonly (readonly NuggetJudgment[])[]): NuggetScores {
  const sum = { strictVital: 0, vital: 0, strictAll: 0, all: 0 };
  for (const a of answers) {
    const s = nuggetScores(a);
    sum.strictVital += s.strictVital;
    sum.vital += s.vital;
    sum.strictAll += s.strictAll;
    sum.all += s.all;
  }
  const n = answers.length || 1;
  return {
    strictVital: sum.strictVital / n,
    vital: sum.vital / n,
    strictAll: sum.strictAll / n,
    all: sum.all / n,
  };
}
