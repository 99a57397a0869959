/**
 * CRUX report coverage per generated run, read from the measure table, for the
 * analyses that set another method beside it.
 *
 * @module
 */
import type { WorkspaceLike } from "@lib/store/mod.ts";

/**
 * The aggregate report coverage (`Cov`, method crux, source report) of every
 * judged generation run, by the report judge the main table uses: the judge
 * with the most ratings of generated reports among those with stored report
 * coverage (judge-variance samples, `<judge>#s<i>`, rate the same reports under
 * their own names and lose ties; values imported without ratings count 0).
 *
 * @param ws The workspace.
 * @returns Run -> coverage, and the judge (undefined when no report was judged).
 */
export async function reportCoverage(
  ws: WorkspaceLike,
): Promise<{ judge?: string; coverage: Map<string, number> }> {
  const judges = await ws.query<{ judge: string }>(
    `SELECT m.judge FROM (SELECT DISTINCT judge FROM measures WHERE method = 'crux'
         AND source = 'report' AND measure = 'Cov' AND topic_id = 'all') m
       LEFT JOIN (SELECT judge, count(*) AS n FROM ratings JOIN rated_items i USING (item_id, judge)
         WHERE i.item_kind = 'report' GROUP BY judge) r USING (judge)
     ORDER BY coalesce(r.n, 0) DESC, regexp_matches(m.judge, '#s[0-9]+$'), m.judge LIMIT 1`,
  );
  const judge = judges[0]?.judge;
  if (judge === undefined) return { coverage: new Map() };
  const rows = await ws.query<{ run: string; value: number }>(
    `SELECT run, value FROM measures WHERE method = 'crux' AND source = 'report' AND measure = 'Cov'
       AND topic_id = 'all' AND judge = $1`,
    [judge],
  );
  return { judge, coverage: new Map(rows.map((r) => [r.run, Number(r.value)])) };
}
