/**
 * Judging for CRUX evaluation: graded answerability (0-5) of any text against
 * sub-questions, stored in the workspace and cached ({@link rateItems}), and the
 * judging of generated reports ({@link judgeReports}) giving coverage Cov(y) and
 * density Den(y) of each report and of its retrieval context (CRUX, Ju et al.,
 * 2025; densities use w = 0.5 as in the paper's tables).
 *
 * @example
 * ```ts
 * import { selectRequired } from "@lib/construct/mod.ts";
 * import { storeHumanSummaries } from "@lib/generate/mod.ts";
 * import { judgeReports } from "@lib/judge/mod.ts";
 * import { lexicalJudge } from "@lib/llm/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // the select stage, in short
 * await storeHumanSummaries(ws); // reports of run oracle-result
 * const { runs } = await judgeReports(ws, { judge: lexicalJudge() });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
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
