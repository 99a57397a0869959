/**
 * The offline type heuristic for sub-questions (core / background / follow-up).
 *
 * @module
 */
import { contentTerms } from "./_terms.ts";
import type { SubquestionType } from "@lib/metrics/mod.ts";

const FOLLOW_UP =
  /\b(next|future|will|would|could|should|plan(s|ned)?|expected|long[- ]term|afterwards?|later|other (cities|countries|places|companies)|elsewhere|prevent|lessons?)\b/i;
const BACKGROUND =
  /\b(what is|what are|what was the history|history|background|before|previously|originally|first (built|proposed|founded)|define|definition|how does .* work|in general|typically)\b/i;

/**
 * Types a sub-question without a model (backend `type-heuristic (offline)`):
 * `follow-up` when it asks about what comes next (future tense, plans,
 * consequences, other places), `background` when it asks for history or
 * definitions, otherwise `core` when at least half of its content terms
 * (analyzed, stop words removed) occur in the complex question and
 * `background` when fewer do.
 *
 * @param question The complex question.
 * @param subQuestion The sub-question.
 * @returns Its type.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { heuristicType } from "@lib/subq/mod.ts";
 * const q = "Why did the bridge collapse?";
 * assert.equal(heuristicType(q, "What will replace the bridge next year?"), "follow-up");
 * assert.equal(heuristicType(q, "What caused the bridge collapse?"), "core");
 * ```
 */
export function heuristicType(question: string, subQuestion: string): SubquestionType {
  if (FOLLOW_UP.test(subQuestion)) return "follow-up";
  if (BACKGROUND.test(subQuestion)) return "background";
  const q = new Set(contentTerms(question));
  const terms = [...new Set(contentTerms(subQuestion))];
  const shared = terms.filter((t) => q.has(t)).length;
  return terms.length && shared / terms.length >= 0.5 ? "core" : "background";
}
