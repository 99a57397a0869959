/**
 * The default judge of generated reports: one rule for the main table and every
 * analysis that sets another method beside CRUX report coverage.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * The judge with the most ratings of generated reports; on a tie a judge-variance
 * sample (`<judge>#s<i>`) loses to a judge of its own, then names decide.
 *
 * @param ws The workspace.
 * @returns The judge, or undefined when no generated report is rated.
 * @example
 * ```ts
 * import { defaultReportJudge } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await defaultReportJudge(ws); // "lexical" after the offline demo
 * ```
 */
export async function defaultReportJudge(ws: WorkspaceLike): Promise<string | undefined> {
  const [top] = await ws.query<{ judge: string }>(
    `SELECT judge FROM ratings JOIN rated_items i USING (topic_id, item_id, judge)
     WHERE i.item_kind = 'report'
     GROUP BY judge ORDER BY count(*) DESC, regexp_matches(judge, '#s[0-9]+$'), judge LIMIT 1`,
  );
  return top?.judge;
}
