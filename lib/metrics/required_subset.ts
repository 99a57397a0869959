/**
 * CRUX dataset construction: the greedy required subset P*, graded qrels and
 * diversity qrels from a topic's answerability ratings.
 *
 * @module
 */
import type { Qrel } from "@lib/types/mod.ts";
import type { ItemRatings } from "./judged.ts";
import { collectRatings } from "./_collect_ratings.ts";
import { CRUX_DEFAULTS } from "./crux_defaults.ts";
import { answerableQuestions } from "./answerable_questions.ts";

/** Result of {@linkcode requiredSubset}. */
export interface RequiredSubset {
  /** Grades per passage: 3 required (kept), 2 other, 1 redundant; `subtopic` "0". */
  qrels: Qrel[];
  /** For every passage and sub-question (numbered from 1): 1 if rating >= tau, else 0. */
  diversityQrels: Qrel[];
  /** Topic -> kept passages in selection order. */
  required: Map<string, string[]>;
  /** Topics where nothing was kept (no answerable sub-question); left out of the qrels. */
  dropped: string[];
  /** -1 ratings met (counted as 0). */
  unparseableRatings: number;
}

/** Options of {@linkcode requiredSubset}. */
export interface RequiredSubsetOptions {
  /** Rating at which a passage answers a sub-question. Default 3. */
  tau?: number;
  /**
   * Which sub-questions the redundancy test (grade 1) compares: `all` (default; the
   * original CRUX code, reproducing released qrels) or `answerable` only.
   */
  redundancy?: "all" | "answerable";
}

/** Position `j` of a `{topic}:{doc}#{j}` passage id, or undefined. */
function passageIndex(id: string): number | undefined {
  const m = /#(\d+)$/.exec(id);
  return m ? Number(m[1]) : undefined;
}

/** Passages in topic order: by `j` when every id has one, else input order. */
function topicOrder(passages: readonly string[]): string[] {
  const js = passages.map(passageIndex);
  if (js.some((j) => j === undefined)) return [...passages];
  return passages.map((p, i) => ({ p, j: js[i]!, i })).sort((a, b) => a.j - b.j || a.i - b.i)
    .map((x) => x.p);
}

/**
 * Greedy selection of the required passages of each topic (CRUX, Ju et al. 2025):
 * B(p, q) = [G(p, q) >= tau]. While an answerable sub-question is uncovered,
 * every passage scores (uncovered sub-questions it answers) + 0.1 x [it rates
 * some uncovered sub-question > 0]; the highest is taken (the first in passage
 * order on ties) and kept if it covers something new. Kept passages get grade
 * 3; a passage rated strictly below the best kept rating on every sub-question
 * of the topic, unanswerable ones included, is redundant (grade 1), as the
 * original CRUX code does by comparing whole rating vectors (`redundancy:
 * "all"`, the default, which reproduces the released qrels); with `redundancy:
 * "answerable"` only the answerable sub-questions are compared. Any other
 * passage gets grade 2. Topics where nothing is kept are dropped. Only the
 * passages given are graded: a passage without ratings gets no qrels line.
 *
 * Passage order is the order of `j` in `{topic}:{doc}#{j}`, which is the
 * judgments file order in the CRUX release; ids without `#j` keep input order.
 * Report items (`{topic}:report`) are ignored; -1 ratings count as 0.
 *
 * @param judgments Ratings of every (topic, passage), one per sub-question.
 * @param opts `tau` (default 3) and `redundancy` (`all`, default, or `answerable`).
 * @returns Qrels, diversity qrels, the kept passages and the dropped topics.
 * @throws {Error} When an item's rating count differs from its topic's.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requiredSubset } from "@lib/metrics/mod.ts";
 * const judgments = [
 *   { topicId: "t", itemId: "t:d#0", ratings: [5, 0, 1] },
 *   { topicId: "t", itemId: "t:d#1", ratings: [4, 4, 0] },
 *   { topicId: "t", itemId: "t:d#2", ratings: [1, 0, 0] },
 * ];
 * const { qrels, required } = requiredSubset(judgments, { tau: 3 });
 * assert.deepEqual(required.get("t"), ["t:d#1"]); // it answers both answerable sub-questions
 * assert.deepEqual(qrels.map((q) => q.grade), [2, 3, 2]); // t:d#2 ties the kept 0 on the second sub-question
 * assert.deepEqual(requiredSubset(judgments, { redundancy: "answerable" }).qrels.map((q) => q.grade), [2, 3, 1]);
 * ```
 */
export function requiredSubset(
  judgments: readonly ItemRatings[],
  opts: RequiredSubsetOptions = {},
): RequiredSubset {
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const redundancy = opts.redundancy ?? "all";
  if (redundancy !== "all" && redundancy !== "answerable") {
    throw new RangeError(`Unknown redundancy rule "${redundancy}": use "all" or "answerable"`);
  }
  const { topics, unparseable } = collectRatings(judgments);
  const out: RequiredSubset = {
    qrels: [],
    diversityQrels: [],
    required: new Map(),
    dropped: [],
    unparseableRatings: unparseable,
  };
  for (const [topicId, topic] of topics) {
    const passages = topicOrder(topic.passages);
    const rows = passages.map((p) => topic.ratings.get(p)!);
    const nq = topic.questions;
    // Before selection, A is what some rated passage of the topic answers.
    const uncovered = Uint8Array.from(answerableQuestions(rows, nq, { tau }), Number);
    // The sub-questions the redundancy test compares: all of them (the original
    // rule) or only the answerable ones.
    const compared = redundancy === "all"
      ? [...uncovered.keys()]
      : [...uncovered.keys()].filter((q) => uncovered[q] === 1);
    let left = uncovered.reduce((s, v) => s + v, 0);
    const kept: number[] = [];
    while (left > 0) {
      let best = -1;
      let bestScore = -1;
      let bestNew = 0;
      rows.forEach((row, i) => {
        let fresh = 0;
        let touches = false;
        for (let q = 0; q < nq; q++) {
          if (!uncovered[q]) continue;
          if (row[q] >= tau) fresh++;
          if (row[q] > 0) touches = true;
        }
        const score = fresh + (touches ? 0.1 : 0);
        if (score > bestScore) [best, bestScore, bestNew] = [i, score, fresh];
      });
      if (bestNew === 0) break; // cannot happen while an answerable question is uncovered
      kept.push(best);
      rows[best].forEach((r, q) => {
        if (r >= tau && uncovered[q]) {
          uncovered[q] = 0;
          left--;
        }
      });
    }
    if (!kept.length) {
      out.dropped.push(topicId);
      continue;
    }
    const bestKept = new Int8Array(nq);
    for (const i of kept) rows[i].forEach((r, q) => (bestKept[q] = Math.max(bestKept[q], r)));
    const keptSet = new Set(kept);
    rows.forEach((row, i) => {
      const redundant = compared.every((q) => row[q] < bestKept[q]);
      const grade = keptSet.has(i) ? 3 : redundant ? 1 : 2;
      out.qrels.push({ topicId, docId: passages[i], grade, subtopic: "0" });
      row.forEach((r, q) =>
        out.diversityQrels.push({
          topicId,
          docId: passages[i],
          grade: r >= tau ? 1 : 0,
          subtopic: String(q + 1),
        })
      );
    });
    out.required.set(topicId, kept.map((i) => passages[i]));
  }
  return out;
}
