/**
 * CRUX report coverage per generated run, read from the measure table, for the
 * analyses that set another method beside it.
 *
 * @module
 */
import { defaultReportJudge, type WorkspaceLike } from "@lib/store/mod.ts";

/**
 * The aggregate report coverage (`Cov`, method crux, source report) of every
 * judged generation run, by the report judge the main table uses
 * ({@linkcode defaultReportJudge}); where values were stored without ratings of
 * reports (imported), by the first judge of those values, samples
 * (`<judge>#s<i>`) last.
 *
 * @param ws The workspace.
 * @returns Run -> coverage, and the judge (undefined when no report coverage is stored).
 */
export async function reportCoverage(
  ws: WorkspaceLike,
): Promise<{ judge?: string; coverage: Map<string, number> }> {
  const stored = `FROM measures WHERE method = 'crux' AND source = 'report' AND measure = 'Cov'
       AND topic_id = 'all'`;
  const judge = await defaultReportJudge(ws) ?? (await ws.query<{ judge: string }>(
    `SELECT DISTINCT judge ${stored} ORDER BY regexp_matches(judge, '#s[0-9]+$'), judge LIMIT 1`,
  ))[0]?.judge;
  if (judge === undefined) return { coverage: new Map() };
  const rows = await ws.query<{ run: string; value: number }>(
    `SELECT run, value ${stored} AND judge = $1`,
    [judge],
  );
  return { judge, coverage: new Map(rows.map((r) => [r.run, Number(r.value)])) };
}
