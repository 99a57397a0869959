/**
 * Judging for CRUX evaluation: graded answerability (0-5) of any text against
 * sub-questions, stored in the workspace and cached ({@link rateItems}), and the
 * judging of generated reports ({@link judgeReports}) giving coverage Cov(y) and
 * density Den(y) of each report and of its retrieval context (CRUX, Ju et al.,
 * 2025; densities use w = 0.5 as in the paper's tables).
 *
 * @example
 * ```ts ignore
 * // Not run as a test: it needs the selection and generations of a pipeline run.
 * import { judgeReports } from "@lib/judge/mod.ts";
 * import { lexicalJudge } from "@lib/llm/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const { runs } = await judgeReports(ws, { judge: lexicalJudge() });
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
  reportItemId,
  type ReportJudgment,
} from "./judge_reports.ts";
