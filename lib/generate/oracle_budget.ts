// The oracle budget of a topic: |P*| passages and at most the tokens of P*, capped as in CRUX.

import { CRUX_DEFAULTS, oracleSets, oracleTokens } from "@lib/metrics/mod.ts";
import type { Qrel } from "@lib/types/mod.ts";
import { passageOrdinal } from "@lib/store/mod.ts";

/** The generation budget of one topic, shared by every pipeline evaluated on it. */
export interface OracleBudget {
  topicId: string;
  /** Number of passages a pipeline may pass to the generator: |P*|. */
  k: number;
  /** Maximum length of the report: total tokens of P*, at most the cap. */
  maxTokens: number;
  /** Total tokens of P*, present only when the cap clipped it (then above `maxTokens`). */
  uncappedTokens?: number;
  /** The oracle passages P* in passage order (`j` of `{topic}:{doc}#{j}`). */
  oracleIds: string[];
}

/** Options of {@link oracleBudgets}. */
export interface OracleBudgetOptions {
  /** Qrel grade marking a required passage. Default 3 (CRUX `*_qrels_pr`). */
  grade?: number;
  /**
   * Largest report length in tokens. Default {@link ORACLE_BUDGET_CAP} (2,500, the
   * CRUX paper's limit); `Infinity` lifts it.
   */
  cap?: number;
}

/** The CRUX paper's cap on the generation length (its Limitations section): 2,500 tokens. */
export const ORACLE_BUDGET_CAP: number = CRUX_DEFAULTS.budgetCap;

/**
 * Computes the CRUX generation budget of every topic from its required
 * passages P* (qrels of the given grade): top-k = |P*| and a maximum length
 * equal to the token count of P*, so every pipeline gets the same budget,
 * capped at 2,500 tokens as in the paper (a clipped budget keeps the total
 * in `uncappedTokens`). Diversity qrels (a non-zero `subtopic`) are ignored.
 *
 * @param qrels CRUX passage qrels (grades 3/2/1).
 * @param tokens Token count of each passage id.
 * @param opts `grade` (default 3), `cap` (default 2,500 tokens).
 * @returns Topic id -> budget, for topics with at least one required passage.
 * @throws {RangeError} When a required passage has no token count.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const qrels = [
 *   { topicId: "t", docId: "t:0#1", grade: 3 },
 *   { topicId: "t", docId: "t:0#0", grade: 3 },
 *   { topicId: "t", docId: "t:1#2", grade: 2 },
 * ];
 * const budgets = oracleBudgets(qrels, new Map([["t:0#0", 120], ["t:0#1", 80]]));
 * assert.deepEqual(budgets.get("t"), {
 *   topicId: "t", k: 2, maxTokens: 200, oracleIds: ["t:0#0", "t:0#1"],
 * });
 * ```
 */
export function oracleBudgets(
  qrels: readonly Qrel[],
  tokens: ReadonlyMap<string, number>,
  opts: OracleBudgetOptions = {},
): Map<string, OracleBudget> {
  const cap = opts.cap ?? ORACLE_BUDGET_CAP;
  if (!(cap > 0)) {
    throw new RangeError(
      `Cannot compute oracle budgets: the token cap must be positive, got ${cap}; pass Infinity for no cap`,
    );
  }
  const byTopic = oracleSets(qrels, { grade: opts.grade ?? CRUX_DEFAULTS.oracleGrade });
  const out = new Map<string, OracleBudget>();
  for (const [topicId, ids] of byTopic) {
    const oracleIds = [...ids].sort((a, b) =>
      passageOrdinal(a) - passageOrdinal(b) || (a < b ? -1 : a > b ? 1 : 0)
    );
    const { tokens: maxTokens, missing: id } = oracleTokens(oracleIds, tokens);
    if (id !== undefined) {
      throw new RangeError(
        `Cannot compute the oracle budget of topic "${topicId}": passage "${id}" has no token count; run \`crux construct passages\` or import the passages with their texts first`,
      );
    }
    out.set(
      topicId,
      maxTokens > cap
        ? { topicId, k: oracleIds.length, maxTokens: cap, uncappedTokens: maxTokens, oracleIds }
        : { topicId, k: oracleIds.length, maxTokens, oracleIds },
    );
  }
  return out;
}
