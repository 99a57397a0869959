/**
 * `judged@k`: how much of a run's top k has a judgment (trec_eval's `judged`).
 *
 * @module
 */
import type { MeasureDef } from "./measure.ts";

/**
 * The share of the top k documents that are judged: listed in the qrels with a
 * grade >= 0, or rated by the CRUX judge. Divides by k even when fewer were
 * retrieved (trec_eval `judged.k`). A low value warns that P, nDCG or Cov treat
 * many retrieved passages as non-relevant (or rated 0) without anyone having
 * judged them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate } from "@lib/metrics/mod.ts";
 * const run = [
 *   { run: "r", topicId: "q1", docId: "d1", rank: 1, score: 2 },
 *   { run: "r", topicId: "q1", docId: "d9", rank: 2, score: 1 },
 * ];
 * const result = evaluate(run, ["judged@2"], { qrels: [{ topicId: "q1", docId: "d1", grade: 0 }] });
 * assert.equal(result.aggregates[0].value, 0.5); // d9 is unjudged
 * ```
 */
export const judgedMeasure: MeasureDef = {
  name: "judged",
  description: "Share of the top k documents that have a judgment (a qrels grade >= 0 or " +
    "CRUX ratings), divided by k (trec_eval judged.k).",
  citation: "Buckley and Voorhees, trec_eval (NIST), version 10.0",
  params: {},
  cutoff: "required",
  oracleCutoff: true,
  needs: "qrels",
  compute(view, m) {
    const grades = view.grades();
    const ratings = view.judged?.crux?.ratings;
    const n = Math.min(m.depth, grades.length);
    let judged = 0;
    for (let i = 0; i < n; i++) {
      if (grades[i] >= 0 || ratings?.has(view.docs[i])) judged++;
    }
    return judged / m.depth;
  },
};
