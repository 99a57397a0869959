/**
 * Judging for CRUX evaluation: graded answerability (0-5) of any text against
 * sub-questions, stored in the workspace and cached ({@link rateItems}), the
 * rating of generated reports ({@link rateReports}, ratings only), their
 * measures from the stored ratings ({@link measureReports}: coverage Cov(y) and
 * density Den(y) of each report and of its retrieval context; CRUX, Ju et al.,
 * 2025; densities use w = 0.5 as in the paper's tables), and both in one call
 * ({@link judgeReports}); each report against its oracle budget
 * ({@link measureReportBudgets}: tokens of P*, tokens / budget, context size).
 *
 * @example
 * ```ts ignore
 * // Not run here: it reads a workspace after the select and generate stages (`crux run`).
 * import { judgeReports } from "@lib/judge/mod.ts";
 * import { lexicalJudge } from "@lib/llm/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace("outputs/demo");
 * const { runs } = await judgeReports(ws, { judge: lexicalJudge() });
 * ws.close();
 * ```
 *
 * @module
 */
export {
  rateItems,
  type RateItemsOptions,
  type RateItemsResult,
  type RatingItem,
} from "./rate_items.ts";
export {
  judgeReports,
  type JudgeReportsOptions,
  type JudgeReportsResult,
} from "./judge_reports.ts";
export { rateReports, type RateReportsOptions, type RateReportsResult } from "./rate_reports.ts";
export {
  measureReports,
  type MeasureReportsOptions,
  type MeasureReportsResult,
  type ReportJudgment,
} from "./measure_reports.ts";
export { reportItemId } from "./report_item_id.ts";
export {
  measureReportBudgets,
  type MeasureReportBudgetsOptions,
} from "./measure_report_budgets.ts";
export {
  REPORT_BUDGET_MEASURES,
  type ReportBudgetInput,
  reportBudgetRows,
} from "./report_budget_rows.ts";
