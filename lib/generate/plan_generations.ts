// Which reports to generate: one per condition (RAG per retrieval run, direct, oracle) and topic.

import { compareTrecOrder } from "@lib/formats/mod.ts";
import type { RunRow, Topic } from "@lib/types/mod.ts";
import type { OracleBudget } from "./oracle_budget.ts";

/** How the context of a generated report is chosen. */
export type GenerationCondition = "rag" | "direct" | "oracle-context";

/** One report to generate. */
export interface PlannedGeneration {
  topicId: string;
  condition: GenerationCondition;
  /** The topic's report request. */
  request: string;
  /** Context passage ids in rank order (empty for `direct`). */
  contextIds: string[];
  /** Context texts, parallel to `contextIds`. */
  contexts: string[];
  /** Length budget: tokens of P*. */
  maxTokens: number;
  /**
   * Ids among the run's top k (`rag`) or P* (`oracle-context`) with no text in the
   * workspace: left out of the context (and, with `missingText: "fill"`, replaced).
   */
  missingIds: string[];
  /** With `missingText: "fill"`: the lower-ranked ids that took their places. */
  filledIds: string[];
}

/**
 * What to do with context passages that have no text: `keep` the shorter context
 * (the default: the generator sees exactly the run's top k that can be read, so
 * the context measured at k is the context written from), or `fill` the places
 * from lower ranks of the run (`rag` only; P* has no lower ranks).
 */
export type MissingTextRule = "keep" | "fill";

/** What {@link planGenerations} plans from. */
export interface PlanInput {
  topics: readonly Topic[];
  /** Oracle budgets by topic; topics without one (dropped by selection) are skipped. */
  budgets: ReadonlyMap<string, OracleBudget>;
  /** Text of a passage id, `undefined` when unknown. */
  text: (passageId: string) => string | undefined;
  /** The retrieval run (any topics); required for `rag`. */
  run?: readonly RunRow[];
  /** Passages without text: `keep` the shorter context (default) or `fill` from lower ranks. */
  missingText?: MissingTextRule;
}

/** A plan plus what could not be planned. */
export interface GenerationPlan {
  items: PlannedGeneration[];
  /** Topics with a budget but no ranking in the run (`rag` only). */
  topicsWithoutRanking: string[];
  /** Retrieved ids with no known text, left out of the context (every topic, in order). */
  missingTexts: string[];
}

/**
 * Plans the reports of one condition under the CRUX oracle budget: `rag` takes
 * the top k = |P*| passages of the run (ordered by score descending, ties by
 * document id descending in UTF-8 byte order, as trec_eval and the evaluator:
 * `compareTrecOrder` of `@lib/formats`), `oracle-context` takes P* in passage
 * order, `direct` has no context; every report gets `maxTokens` = tokens of P*.
 * A passage without text is left out and named in the item's `missingIds`; with
 * `missingText: "fill"` a `rag` context takes the next readable passages of the
 * run instead (named in `filledIds`). Pure: texts come from the `text` lookup.
 *
 * @param condition `rag`, `direct` or `oracle-context`.
 * @param input Topics, budgets, a text lookup and (for `rag`) the run.
 * @returns The planned generations in topic order, with what was missing.
 * @throws {TypeError} When `condition` is `rag` and no run is given.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { oracleBudgets, planGenerations } from "@lib/generate/mod.ts";
 * const topics = [{ topicId: "t", request: "Report on the flood." }];
 * const budgets = oracleBudgets(
 *   [{ topicId: "t", docId: "t:0#1", grade: 3 }, { topicId: "t", docId: "t:0#0", grade: 3 }],
 *   new Map([["t:0#0", 3], ["t:0#1", 3]]),
 * );
 * const texts = new Map([["t:0#0", "Rain fell."], ["t:0#1", "Rivers rose."]]);
 * const plan = planGenerations("oracle-context", { topics, budgets, text: (id) => texts.get(id) });
 * assert.deepEqual(plan.items[0].contextIds, ["t:0#0", "t:0#1"]); // P* of the first topic
 * assert.equal(plan.items[0].maxTokens, 6);
 * ```
 */
export function planGenerations(condition: GenerationCondition, input: PlanInput): GenerationPlan {
  if (condition === "rag" && !input.run) {
    throw new TypeError(
      "Cannot plan RAG generations without a run: give the retrieval context run",
    );
  }
  const ranked = new Map<string, RunRow[]>();
  for (const row of input.run ?? []) {
    let list = ranked.get(row.topicId);
    if (!list) ranked.set(row.topicId, list = []);
    list.push(row);
  }
  const items: PlannedGeneration[] = [];
  const topicsWithoutRanking: string[] = [];
  const missingTexts: string[] = [];
  for (const topic of input.topics) {
    const budget = input.budgets.get(topic.topicId);
    if (!budget) continue;
    let ids: string[] = [];
    let below: string[] = [];
    if (condition === "oracle-context") ids = budget.oracleIds;
    if (condition === "rag") {
      const rows = ranked.get(topic.topicId);
      if (!rows) {
        topicsWithoutRanking.push(topic.topicId);
        continue;
      }
      const seen = new Set<string>();
      const ordered = [...rows]
        .sort(compareTrecOrder)
        .map((r) => r.docId)
        .filter((id) => !seen.has(id) && (seen.add(id), true));
      ids = ordered.slice(0, budget.k);
      below = ordered.slice(budget.k);
    }
    const contextIds: string[] = [];
    const contexts: string[] = [];
    const missingIds: string[] = [];
    const filledIds: string[] = [];
    for (const id of ids) {
      const t = input.text(id);
      if (t === undefined) missingIds.push(id);
      else {
        contextIds.push(id);
        contexts.push(t);
      }
    }
    if ((input.missingText ?? "keep") === "fill") {
      for (const id of below) {
        if (contextIds.length >= ids.length) break;
        const t = input.text(id);
        if (t === undefined) continue;
        contextIds.push(id);
        contexts.push(t);
        filledIds.push(id);
      }
    }
    missingTexts.push(...missingIds);
    items.push({
      topicId: topic.topicId,
      condition,
      request: topic.request,
      contextIds,
      contexts,
      maxTokens: budget.maxTokens,
      missingIds,
      filledIds,
    });
  }
  return { items, topicsWithoutRanking, missingTexts };
}
