/**
 * CRUX report coverage per generated run, read from the measure table, for the
 * analyses that set another method beside it.
 *
 * @module
 */
import { defaultReportJudge, readMeasures, type WorkspaceLike } from "@lib/store/mod.ts";

/**
 * The aggregate report coverage (`Cov`, method crux, source report) of every
 * judged generation run, by the report judge the main table uses
 * ({@linkcode defaultReportJudge}); where values were stored without ratings of
 * reports (imported), by the first judge of those values, samples
 * (`<judge>#s<i>`) last.
 *
 * @param ws The workspace.
 * @returns Run -> coverage, and the judge (undefined when no report coverage is stored).
 * @example
 * ```ts
 * import { storedReportCoverage } from "@lib/analysis/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * (await storedReportCoverage(ws)).coverage.size; // 0: nothing measured yet
 * ws.close();
 * ```
 */
export async function storedReportCoverage(
  ws: WorkspaceLike,
): Promise<{ judge?: string; coverage: Map<string, number> }> {
  const cov = { method: "crux", source: "report", measure: "Cov", topicId: "all" } as const;
  const rows = await readMeasures(ws, cov, ["judge"]);
  // Without ratings of reports: the first judge of the values, sample judges last.
  const judge = await defaultReportJudge(ws) ??
    (await readMeasures(ws, { ...cov, sampleJudges: "exclude" }, ["judge"]))[0]?.judge ??
    rows[0]?.judge;
  if (judge === undefined) return { coverage: new Map() };
  return {
    judge,
    coverage: new Map(rows.filter((r) => r.judge === judge).map((r) => [r.run, Number(r.value)])),
  };
}
