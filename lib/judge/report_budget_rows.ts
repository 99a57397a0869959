/**
 * Each report against its oracle budget, as measure rows: the budget (tokens
 * of the topic's oracle passages P*), the report's share of it (its stored
 * token count / the budget) and the number of passages in its context, per
 * generation run and topic. The report's own length is the `Tokens` row the
 * report measures store beside Cov(y); it is not stored a second time here.
 *
 * @module
 */
import type { Generation } from "@lib/types/mod.ts";
import { measureRow } from "@lib/store/mod.ts";
import { formatTopicSet, oracleTokens } from "@lib/metrics/mod.ts";

/** The stored names of {@linkcode reportBudgetRows}' measures, by what they show. */
export const REPORT_BUDGET_MEASURES = {
  /** Tokens of the topic's P* (the maximum report length of every pipeline). */
  budget: "Budget",
  /** The report's stored token count divided by the budget. */
  ratio: "Tokens/Budget",
  /** Passages of the report's context (0 for a report written without one). */
  context: "ContextPassages",
} as const;

/** What {@linkcode reportBudgetRows} reads. */
export interface ReportBudgetInput {
  /** The stored reports (a failed generation has none, and so no row). */
  reports: readonly Pick<Generation, "run" | "topicId" | "tokens" | "contextIds">[];
  /** P* per topic (a topic without one has no budget). */
  oracle: ReadonlyMap<string, readonly string[]>;
  /** A passage's token count; undefined when the workspace has none. */
  tokens: (passageId: string) => number | undefined;
  /** The judge the rows are stored under (the report judge, as the report's `Tokens`). */
  judge: string;
}

/**
 * The budget rows of stored reports (method crux, source `report`, topic set
 * `topic(id=...)`): `Budget` where the topic has a P* whose every passage has a
 * token count, `Tokens/Budget` where the report also has a stored token count
 * and the budget is above 0, and `ContextPassages` for every report. A value
 * that cannot be computed has no row.
 *
 * @param input The reports, P*, passage token counts and the rows' judge.
 * @returns The rows, in report order.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportBudgetRows } from "@lib/judge/report_budget_rows.ts";
 * const rows = reportBudgetRows({
 *   reports: [{ run: "r", topicId: "t", tokens: 100, contextIds: ["a", "b"] }],
 *   oracle: new Map([["t", ["a", "c"]]]),
 *   tokens: (id) => ({ a: 150, c: 250 } as Record<string, number>)[id],
 *   judge: "j",
 * });
 * assert.deepEqual(rows.map((r) => [r.measure, r.value]), [
 *   ["Budget", 400],
 *   ["Tokens/Budget", 0.25],
 *   ["ContextPassages", 2],
 * ]);
 * ```
 */
export function reportBudgetRows(input: ReportBudgetInput) {
  const budgets = new Map<string, number | undefined>();
  const budgetOf = (topicId: string): number | undefined => {
    if (!budgets.has(topicId)) {
      const ids = input.oracle.get(topicId);
      const sum = ids?.length ? oracleTokens(ids, input.tokens) : undefined;
      // No P*, or a passage of it without a token count: no budget (never a partial sum).
      budgets.set(topicId, sum && sum.missing === undefined ? sum.tokens : undefined);
    }
    return budgets.get(topicId);
  };
  const row = (g: { run: string; topicId: string }, measure: string, value: number) =>
    measureRow({
      run: g.run,
      topicId: g.topicId,
      measure,
      method: "crux",
      judge: input.judge,
      source: "report",
      value,
      topics: null,
      topicSet: formatTopicSet({ kind: "topic", id: g.topicId }),
    });
  const out = [];
  for (const g of input.reports) {
    const budget = budgetOf(g.topicId);
    if (budget !== undefined) {
      out.push(row(g, REPORT_BUDGET_MEASURES.budget, budget));
      if (g.tokens != null && budget > 0) {
        out.push(row(g, REPORT_BUDGET_MEASURES.ratio, g.tokens / budget));
      }
    }
    out.push(row(g, REPORT_BUDGET_MEASURES.context, g.contextIds?.length ?? 0));
  }
  return out;
}
