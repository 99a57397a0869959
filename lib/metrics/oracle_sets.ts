/**
 * The oracle set P* of every topic, from a qrels table: one definition for the
 * evaluator's `@oracle` cutoffs, the generation budgets and the analyses.
 *
 * @module
 */
import type { Qrel } from "@lib/types/mod.ts";
import { CRUX_DEFAULTS } from "./crux_defaults.ts";

/**
 * P* of every topic: the documents graded at least `grade` (3 = required in the
 * CRUX qrels), plain qrels only (subtopic absent or "0"), each once, in qrels order.
 *
 * @param qrels A qrels table (e.g. the selection's `crux_pr`).
 * @param opts `grade` (default 3).
 * @returns Topic -> required passages.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { oracleSets } from "@lib/metrics/mod.ts";
 * const sets = oracleSets([
 *   { topicId: "t", docId: "t:0#1", grade: 3 },
 *   { topicId: "t", docId: "t:0#2", grade: 1 },
 * ]);
 * assert.deepEqual(sets, new Map([["t", ["t:0#1"]]]));
 * ```
 */
export function oracleSets(
  qrels: readonly Qrel[],
  opts: { grade?: number } = {},
): Map<string, string[]> {
  const grade = opts.grade ?? CRUX_DEFAULTS.oracleGrade;
  const out = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const q of qrels) {
    if (q.grade < grade || (q.subtopic !== undefined && q.subtopic !== "0")) continue;
    const key = `${q.topicId}\0${q.docId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let ids = out.get(q.topicId);
    if (!ids) out.set(q.topicId, ids = []);
    ids.push(q.docId);
  }
  return out;
}
