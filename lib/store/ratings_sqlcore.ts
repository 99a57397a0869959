/**
 * Reads of `ratings` joined with what the rated items are (`rated_items`) and
 * with the sub-questions (`questions`).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** A judge and whether it rated reports (`true`) or passages (`false`). */
export interface RatingJudgeKind {
  judge: string;
  report: boolean;
}

/**
 * Which judges have ratings of passages and which of reports (any item that is
 * not a passage): one row per judge and kind it rated.
 *
 * @param ws The workspace.
 * @returns The rows, in judge order.
 * @example
 * ```ts
 * import { readRatingJudgeKinds } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const reportJudges = (await readRatingJudgeKinds(ws)).filter((k) => k.report);
 * ```
 */
export async function readRatingJudgeKinds(ws: WorkspaceLike): Promise<RatingJudgeKind[]> {
  return await ws.query<RatingJudgeKind>(
    `SELECT DISTINCT judge, i.item_kind <> 'passage' AS report
     FROM ratings JOIN rated_items i USING (item_id, judge) ORDER BY judge`,
  );
}

/** One sub-question of a topic and one judge's rating of a report against it. */
export interface ReportQuestionRating {
  topicId: string;
  /** The rating, or null when the judge did not rate this sub-question for the report. */
  rating: number | null;
}

/**
 * One judge's ratings of one run's reports, one row per sub-question of every
 * topic (ordered by topic, then the sub-question's ordinal), null where the
 * judge has no rating. The report of a topic is the item `{topic}:report` for
 * the run `oracle-result` (the reference summary) and `{topic}:report:{run}`
 * for a generated run.
 *
 * @param ws The workspace.
 * @param judge The judge of the report ratings.
 * @param run The generation run.
 * @returns The rows.
 * @example
 * ```ts
 * import { readReportQuestionRatings } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const rows = await readReportQuestionRatings(ws, "gpt-4o", "rag-bm25");
 * ```
 */
export async function readReportQuestionRatings(
  ws: WorkspaceLike,
  judge: string,
  run: string,
): Promise<ReportQuestionRating[]> {
  const reference = run === "oracle-result";
  const item = reference ? "q.topic_id || ':report'" : "q.topic_id || ':report:' || $2";
  return await ws.query<ReportQuestionRating>(
    `SELECT q.topic_id, r.rating FROM questions q
     LEFT JOIN ratings r ON r.question_id = q.question_id AND r.judge = $1 AND r.item_id = ${item}
     WHERE q.kind = 'subquestion' ORDER BY q.topic_id, q.ordinal`,
    reference ? [judge] : [judge, run],
  );
}
