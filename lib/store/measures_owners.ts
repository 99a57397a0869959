/**
 * Reads of the measure table `measures` for the analyses (every table shows
 * the values the measure and judge steps stored), and the clear of the
 * measure step's values of the analyses' contexts.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";
import { readMetaJson, writeMetaJson } from "./meta_json.ts";

/** One stored value of `measures`, as the analyses read it. */
export interface StoredMeasure {
  run: string;
  /** Topic id, or `all` for the mean over topics. */
  topicId: string;
  /** The measure as printed (`Cov@oracle`, `Den(w=0.5)`, ...). */
  measure: string;
  judge: string;
  /** `selection`, `judgments`, `report`, `context`, ... */
  source: string;
  value: number;
  /** Topics averaged (aggregate rows only). */
  topics: number | null;
}

/**
 * The CRUX and relevance values (methods `crux` and `trec`) stored by the given
 * judges: the measure step's values of retrieval runs and generation contexts
 * (by the passage judge) and the report judge's Cov(y) and Den(y).
 *
 * @param ws The workspace.
 * @param judges Judges whose rows are read (e.g. the passage judge and the report judge).
 * @returns Rows ordered by run, source, measure and topic.
 * @example
 * ```ts
 * import { readCruxMeasures } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * const rows = await readCruxMeasures(ws, ["human", "lexical"]);
 * rows.find((r) => r.run === "bm25" && r.measure === "Cov@oracle" && r.topicId === "all");
 * ```
 */
export async function readCruxMeasures(
  ws: WorkspaceLike,
  judges: readonly string[],
): Promise<StoredMeasure[]> {
  if (judges.length === 0) return [];
  const rows = await ws.query<StoredMeasure>(
    `SELECT run, topic_id AS "topicId", measure, judge, source, value, topics FROM measures
     WHERE method IN ('crux', 'trec') AND judge IN (${judges.map((_, i) => `$${i + 1}`).join(", ")})
     ORDER BY run, source, measure, topic_id`,
    [...judges],
  );
  return rows.map((r) => ({
    ...r,
    value: Number(r.value),
    topics: r.topics === null ? null : Number(r.topics),
  }));
}

/**
 * The judge of stored report coverage (`Cov`, method crux, source report, topic
 * `all`) when no judge of report ratings is known: the first in byte order,
 * sample judges (`<judge>#s<i>`) last.
 *
 * @param ws The workspace.
 * @returns The judge, or undefined when no report coverage is stored.
 * @example
 * ```ts
 * import { firstReportCoverageJudge } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await firstReportCoverageJudge(ws); // e.g. "imported"
 * ```
 */
export async function firstReportCoverageJudge(ws: WorkspaceLike): Promise<string | undefined> {
  const rows = await ws.query<{ judge: string }>(
    `SELECT DISTINCT judge FROM measures WHERE method = 'crux' AND source = 'report'
       AND measure = 'Cov' AND topic_id = 'all'
     ORDER BY regexp_matches(judge, '#s[0-9]+$'), judge LIMIT 1`,
  );
  return rows[0]?.judge;
}

/**
 * The mean report coverage (`Cov`, method crux, source report, topic `all`) of
 * every run judged by one judge.
 *
 * @param ws The workspace.
 * @param judge The report judge.
 * @returns Run -> mean Cov(y).
 * @example
 * ```ts
 * import { readReportCoverageMeans } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * (await readReportCoverageMeans(ws, "lexical")).get("rag-bm25");
 * ```
 */
export async function readReportCoverageMeans(
  ws: WorkspaceLike,
  judge: string,
): Promise<Map<string, number>> {
  const rows = await ws.query<{ run: string; value: number }>(
    `SELECT run, value FROM measures WHERE method = 'crux' AND source = 'report'
       AND measure = 'Cov' AND topic_id = 'all' AND judge = $1`,
    [judge],
  );
  return new Map(rows.map((r) => [r.run, Number(r.value)]));
}

/**
 * Deletes the measure step's values of the analyses' contexts of one run: the
 * contexts of a generation run (source `contexts(tau=X)`) and the rankings of a
 * retrieval run (source `ranking(tau=X)`). The report judge's values (sources
 * `report` and `context`) and the run measures (`selection`, `judgments`) stay.
 *
 * @param ws The workspace.
 * @param run The generation run.
 * @example
 * ```ts
 * import { clearContextMeasures } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await clearContextMeasures(ws, "rag-bm25");
 * ```
 */
export async function clearContextMeasures(ws: WorkspaceLike, run: string): Promise<void> {
  await writeMetaJson(ws, contextSkipsKey(run), undefined);
  await ws.exec(
    `DELETE FROM measures WHERE run = $1
       AND (starts_with(source, 'contexts(tau=') OR starts_with(source, 'ranking(tau='))`,
    [run],
  );
}

/**
 * The `meta` key of the topics the measure step left out of a run's context
 * values, with reasons (`{ judge, sources: { source: [topic, measure, reason][] } }`).
 *
 * @param run The run.
 * @returns The key.
 * @example
 * ```ts
 * import { contextSkipsKey } from "@lib/store/mod.ts";
 * contextSkipsKey("bm25"); // 'measure_contexts:["bm25"]'
 * ```
 */
export function contextSkipsKey(run: string): string {
  return `measure_contexts:${JSON.stringify([run])}`;
}

/** Topics the measure step left out of a run's context values, by source: [topic, measure, reason][]. */
export interface ContextSkips {
  judge: string;
  sources: Record<string, [string, string, string][]>;
}

/**
 * The topics the measure step left out of a run's context values, with
 * reasons, when they were measured with the ratings of `judge`.
 *
 * @param ws The workspace.
 * @param run The run.
 * @param judge The passage judge.
 * @param source The source (`ranking(tau=3)`, ...).
 * @returns [topic, measure, reason][], or undefined when nothing is recorded for that judge.
 * @example
 * ```ts
 * import { readContextSkips } from "@lib/store/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace;
 * await readContextSkips(ws, "bm25", "human", "ranking(tau=3)");
 * ```
 */
export async function readContextSkips(
  ws: WorkspaceLike,
  run: string,
  judge: string,
  source: string,
): Promise<[string, string, string][] | undefined> {
  const stored = await readMetaJson<ContextSkips>(ws, contextSkipsKey(run));
  return stored?.judge === judge ? stored.sources[source] ?? [] : undefined;
}
