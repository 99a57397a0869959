/**
 * The measure table `measures`: reads, writes and clears used by the pipeline's
 * stages and the measure step, and the fingerprint of the measure step's inputs
 * (recorded in the memo, kind `measure`, see `memo.ts`).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";
import { readMetaJson, writeMetaJson } from "./meta_json.ts";
import type { MeasureRow } from "@lib/types/mod.ts";

/**
 * Rows of `measures` the measure step owns: methods `trec` and `crux`, answer-level
 * sources (`report`, `context`, written by report judging) excepted.
 */
const MEASURE_STEP = "method IN ('trec', 'crux') AND source NOT IN ('report', 'context')";

/** Judges named `<judge>#s<i>`: samples of the judge-variance stage, not judges. */
const SAMPLE_JUDGE = "regexp_matches(judge, '#s[0-9]+$')";

/** `$first, $first+1, ...` placeholders for `n` values. */
const placeholders = (n: number, first: number) =>
  Array.from({ length: n }, (_, i) => `$${i + first}`).join(", ");

/** Which rows of the measure step {@linkcode deleteMeasureStepRows} deletes. */
export interface MeasureStepFilter {
  run: string;
  /** Only this judge's rows. Default: every judge. */
  judge?: string;
  /** Only this topic (`all`: the means). Default: every topic. */
  topicId?: string;
  /** Only this `source` label. Default: every source of the step. */
  source?: string;
  /** Only these measure keys. Default: every key. */
  measures?: readonly string[];
}

/**
 * Deletes a run's rows of the measure step (methods `trec` and `crux`, never the
 * answer-level sources `report` and `context`), narrowed by judge, topic, source
 * and measure keys when given. An empty `measures` list deletes nothing.
 *
 * @param ws The workspace.
 * @param f The run and the optional narrowing.
 * @example
 * ```ts
 * import { deleteMeasureStepRows } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await deleteMeasureStepRows(ws, { run: "bm25", judge: "human", topicId: "all" });
 * ```
 */
export async function deleteMeasureStepRows(
  ws: WorkspaceLike,
  f: MeasureStepFilter,
): Promise<void> {
  if (f.measures?.length === 0) return;
  const where = ["run = $1"];
  const params: unknown[] = [f.run];
  const add = (column: string, value: string) => {
    params.push(value);
    where.push(`${column} = $${params.length}`);
  };
  if (f.judge !== undefined) add("judge", f.judge);
  if (f.topicId !== undefined) add("topic_id", f.topicId);
  where.push(MEASURE_STEP);
  if (f.source !== undefined) add("source", f.source);
  if (f.measures) {
    where.push(`measure IN (${placeholders(f.measures.length, params.length + 1)})`);
    params.push(...f.measures);
  }
  await ws.exec(`DELETE FROM measures WHERE ${where.join(" AND ")}`, params);
}

/** A stored row of the measure step, as {@linkcode readMeasureStepRows} returns it. */
export interface MeasureStepRow {
  topicId: string;
  measure: string;
  source: string;
  value: number;
  topics: number | null;
}

/**
 * The measure step's rows of a run by one judge under one source label (per-topic
 * rows and the means on topic `all`), in table order.
 *
 * @param ws The workspace.
 * @param f Run, judge and source label.
 * @returns The rows.
 * @example
 * ```ts
 * import { readMeasureStepRows } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readMeasureStepRows(ws, { run: "bm25", judge: "human", source: "selection" });
 * ```
 */
export async function readMeasureStepRows(
  ws: WorkspaceLike,
  f: { run: string; judge: string; source: string },
): Promise<MeasureStepRow[]> {
  return await ws.query<MeasureStepRow>(
    `SELECT topic_id, measure, source, value, topics FROM measures
     WHERE run = $1 AND judge = $2 AND ${MEASURE_STEP} AND source = $3`,
    [f.run, f.judge, f.source],
  );
}

/**
 * Deletes a method's rows of `measures`: all of them, or those of some sources,
 * or those of some (judge, source) pairs. Both narrowings given: rows matching both.
 *
 * @param ws The workspace.
 * @param method The method (`compare`, `keypoints`, `nuggets`, `subq`, ...).
 * @param opts `sources`: only rows of these sources; `judgeSources`: only rows of these pairs;
 *   `runs`: only rows of these runs. An empty list deletes nothing.
 * @returns The number of rows deleted.
 * @example
 * ```ts
 * import { clearMethodMeasures } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearMethodMeasures(ws, "keypoints", { sources: ["merged", "file:kp.jsonl"] });
 * ```
 */
export async function clearMethodMeasures(
  ws: WorkspaceLike,
  method: string,
  opts: {
    sources?: readonly string[];
    judgeSources?: readonly { judge: string; source: string }[];
    runs?: readonly string[];
  } = {},
): Promise<number> {
  const where = ["method = $1"];
  const params: unknown[] = [method];
  if (opts.sources) {
    if (opts.sources.length === 0) return 0;
    where.push(`source IN (${placeholders(opts.sources.length, 2)})`);
    params.push(...opts.sources);
  }
  if (opts.judgeSources) {
    if (opts.judgeSources.length === 0) return 0;
    const pairs = opts.judgeSources.map((p) => {
      params.push(p.judge, p.source);
      return `(judge = $${params.length - 1} AND source = $${params.length})`;
    });
    where.push(`(${pairs.join(" OR ")})`);
  }
  if (opts.runs) {
    if (opts.runs.length === 0) return 0;
    where.push(`run IN (${placeholders(opts.runs.length, params.length + 1)})`);
    params.push(...opts.runs);
  }
  return Number(
    await ws.exec(`DELETE FROM measures WHERE ${where.join(" AND ")}`, params) ?? 0,
  );
}

/**
 * Deletes the answer-level rows of a generated run (sources `report` and
 * `context`, written by report judging), every judge.
 *
 * @param ws The workspace.
 * @param run The generated run.
 * @example
 * ```ts
 * import { clearAnswerMeasures } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearAnswerMeasures(ws, "rag-bm25");
 * ```
 */
export async function clearAnswerMeasures(ws: WorkspaceLike, run: string): Promise<void> {
  await ws.exec("DELETE FROM measures WHERE run = $1 AND source IN ('report', 'context')", [run]);
}

/**
 * Deletes the judge-variance stage's rows of `measures`: every row of method
 * `judge-variance`, and the report measures (method `crux`, source `report`) of
 * sample judges (`<judge>#s<i>`).
 *
 * @param ws The workspace.
 * @example
 * ```ts
 * import { clearJudgeVarianceMeasures } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearJudgeVarianceMeasures(ws);
 * ```
 */
export async function clearJudgeVarianceMeasures(ws: WorkspaceLike): Promise<void> {
  await ws.exec(
    `DELETE FROM measures WHERE method = 'judge-variance'
     OR (method = 'crux' AND source = 'report' AND ${SAMPLE_JUDGE})`,
  );
}

/**
 * The means (topic `all`) of Cov and Den (method `crux`, one source) by the given
 * judges, null values left out, ordered by measure, judge and run.
 *
 * @param ws The workspace.
 * @param f Source and judges (no judge: no rows).
 * @returns The rows.
 * @example
 * ```ts
 * import { readCruxMeans } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readCruxMeans(ws, { source: "report", judges: ["j#s1", "j#s2"] });
 * ```
 */
export async function readCruxMeans(
  ws: WorkspaceLike,
  f: { source: string; judges: readonly string[] },
): Promise<{ judge: string; run: string; measure: string; value: number }[]> {
  if (f.judges.length === 0) return [];
  return await ws.query<{ judge: string; run: string; measure: string; value: number }>(
    `SELECT judge, run, measure, value FROM measures WHERE method = 'crux' AND source = $1
     AND topic_id = 'all' AND name IN ('Cov', 'Den') AND value IS NOT NULL
     AND judge IN (${placeholders(f.judges.length, 2)}) ORDER BY measure, judge, run`,
    [f.source, ...f.judges],
  );
}

/**
 * Which judges and sources hold per-topic values (not null) of one measure of a
 * method, with their row counts, sample judges (`<judge>#s<i>`) left out, ordered
 * by judge and source.
 *
 * @param ws The workspace.
 * @param f Method, measure key and, optionally, the only source to count.
 * @returns One entry per (judge, source).
 * @example
 * ```ts
 * import { readMeasureJudges } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readMeasureJudges(ws, { method: "nuggets", measure: "strict_vital" });
 * ```
 */
export async function readMeasureJudges(
  ws: WorkspaceLike,
  f: { method: string; measure: string; source?: string },
): Promise<{ judge: string; source: string; n: number }[]> {
  const where = `method = $1 AND measure = $2 AND topic_id <> 'all' AND value IS NOT NULL
      AND NOT ${SAMPLE_JUDGE}` + (f.source !== undefined ? " AND source = $3" : "");
  const params = f.source !== undefined ? [f.method, f.measure, f.source] : [f.method, f.measure];
  return await ws.query<{ judge: string; source: string; n: number }>(
    `SELECT judge, source, count(*)::INTEGER AS n FROM measures WHERE ${where}
     GROUP BY ALL ORDER BY judge, source`,
    params,
  );
}

/**
 * Per-topic values (not null) of one measure of a method by one judge and source,
 * ordered by run and topic.
 *
 * @param ws The workspace.
 * @param f Method, measure key, judge and source.
 * @returns The rows.
 * @example
 * ```ts
 * import { readTopicValues } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readTopicValues(ws, { method: "keypoints", measure: "KPR", judge: "j", source: "merged" });
 * ```
 */
export async function readTopicValues(
  ws: WorkspaceLike,
  f: { method: string; measure: string; judge: string; source: string },
): Promise<{ run: string; topicId: string; value: number }[]> {
  return await ws.query<{ run: string; topicId: string; value: number }>(
    `SELECT run, topic_id, value FROM measures WHERE method = $1 AND measure = $2
     AND topic_id <> 'all' AND value IS NOT NULL AND judge = $3 AND source = $4
     ORDER BY run, topic_id`,
    [f.method, f.measure, f.judge, f.source],
  );
}

/**
 * The fingerprint of each run's measure inputs with one judge's passage ratings,
 * for the runs that have rows: an md5 over `version` and, per part, the row count,
 * sum and XOR of row hashes (so row order does not matter and a repeated row
 * changes it). The parts: the run's rows in `runs`; the judge's ratings of
 * passages; the sub-questions; the selection's qrels `crux_pr` and `crux_div`;
 * every passage's token count.
 *
 * @param ws The workspace.
 * @param runs Run names.
 * @param judge The passage judge.
 * @param version Mixed into every fingerprint; a new one makes old ones never match.
 * @returns Run -> fingerprint (runs without rows absent).
 * @example
 * ```ts
 * import { readMeasureInputFingerprints } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readMeasureInputFingerprints(ws, ["bm25"], "human", "measure-inputs-v1");
 * ```
 */
export async function readMeasureInputFingerprints(
  ws: WorkspaceLike,
  runs: readonly string[],
  judge: string,
  version: string,
): Promise<Map<string, string>> {
  if (runs.length === 0) return new Map();
  const part = (hash: string, from: string) =>
    `(SELECT concat_ws(',', count(*), sum(h), bit_xor(h)) FROM (SELECT ${hash} AS h ${from}))`;
  const shared = [
    part(
      "hash(r.topic_id, r.item_id, r.question_id, r.rating)",
      `FROM ratings r JOIN rated_items i USING (item_id, judge)
       WHERE r.judge = $1 AND i.item_kind = 'passage'`,
    ),
    part(
      "hash(topic_id, question_id, ordinal)",
      "FROM questions WHERE kind = 'subquestion'",
    ),
    part(
      "hash(name, topic_id, subtopic, doc_id, grade)",
      "FROM qrels WHERE name IN ('crux_pr', 'crux_div')",
    ),
    part("hash(passage_id, tokens)", "FROM passages"),
  ];
  const rows = await ws.query<{ run: string; fingerprint: string }>(
    `WITH shared AS (SELECT concat_ws('|', ${shared.join(", ")}) AS s),
     per_run AS (
       SELECT run, concat_ws(',', count(*), sum(h), bit_xor(h)) AS s
       FROM (SELECT run, hash(topic_id, doc_id, rank, score) AS h FROM runs
             WHERE run IN (${placeholders(runs.length, 3)}))
       GROUP BY run)
     SELECT per_run.run, md5(concat_ws('|', $2, per_run.s, shared.s)) AS fingerprint
     FROM per_run, shared`,
    [judge, version, ...runs],
  );
  return new Map(rows.map((r) => [r.run, r.fingerprint]));
}

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
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
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
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
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
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
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
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
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
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
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

/** One row of the judge-variance measures. */
export interface JudgeVarianceRow {
  /** The run, or `""` for values over all runs (samples, ranking agreement, Kendall tau-b). */
  run: string;
  measure: string;
  value: number | null;
  judge: string;
  source: string;
}

/**
 * The measures of the judge-variance stage (method `judge-variance`).
 *
 * @param ws The workspace.
 * @returns The rows, ordered by run and measure; empty when the stage has not run.
 * @example
 * ```ts
 * import { readJudgeVarianceRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const rows = await readJudgeVarianceRows(ws);
 * ```
 */
export async function readJudgeVarianceRows(ws: WorkspaceLike): Promise<JudgeVarianceRow[]> {
  return await ws.query<JudgeVarianceRow>(
    `SELECT run, measure, value, judge, source FROM measures WHERE method = 'judge-variance'
     ORDER BY run, measure`,
  );
}

/** A judge and source of a method's measures, with its number of rows. */
export interface MeasureJudgeSource {
  judge: string;
  source: string;
  n: number;
}

/** Options of {@linkcode readMeasureJudgeSources}. */
export interface MeasureJudgeSourceOptions {
  /** Only this source (when given). */
  source?: string;
  /** Only this judge (when given). */
  judge?: string;
  /** Count only the per-topic rows (not `all`) of this measure. */
  perTopicMeasure?: string;
}

/**
 * The (judge, source) pairs of one method's measures, the most rows first
 * (ties by judge, then source): the first is the default pair of an analysis.
 *
 * @param ws The workspace.
 * @param method The method (`keypoints`, `nuggets`, ...).
 * @param opts Source and judge filters; `perTopicMeasure` counts only per-topic rows of that measure.
 * @returns The pairs with their row counts.
 * @example
 * ```ts
 * import { readMeasureJudgeSources } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const [first] = await readMeasureJudgeSources(ws, "nuggets", { perTopicMeasure: "strict_vital" });
 * ```
 */
export async function readMeasureJudgeSources(
  ws: WorkspaceLike,
  method: string,
  opts: MeasureJudgeSourceOptions = {},
): Promise<MeasureJudgeSource[]> {
  const perTopic = opts.perTopicMeasure === undefined
    ? ""
    : "AND topic_id <> 'all' AND measure = $4";
  return await ws.query<MeasureJudgeSource>(
    `SELECT judge, source, count(*)::INT AS n FROM measures
     WHERE method = $1 ${perTopic}
       AND ($2::VARCHAR IS NULL OR source = $2) AND ($3::VARCHAR IS NULL OR judge = $3)
     GROUP BY ALL ORDER BY n DESC, judge, source`,
    [
      method,
      opts.source ?? null,
      opts.judge ?? null,
      ...(opts.perTopicMeasure === undefined ? [] : [opts.perTopicMeasure]),
    ],
  );
}

/** One value of a method's measures. */
export interface MethodMeasureValue {
  run: string;
  /** The topic, or `all` for the mean over topics. */
  topicId: string;
  measure: string;
  value: number;
  /** Topics averaged (on `all` rows). */
  topics: number | null;
}

/**
 * The values of one method's measures by one judge over one source.
 *
 * @param ws The workspace.
 * @param method The method (`keypoints`, `nuggets`, ...).
 * @param judge The judge.
 * @param source The source (key point or nugget origin).
 * @param opts `meansOnly`: only the means over topics (rows with topic `all`).
 * @returns The rows, in the table's order.
 * @example
 * ```ts
 * import { readMethodMeasures } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const rows = await readMethodMeasures(ws, "keypoints", "offline-entailment", "extracted:offline");
 * ```
 */
export async function readMethodMeasures(
  ws: WorkspaceLike,
  method: string,
  judge: string,
  source: string,
  opts: { meansOnly?: boolean } = {},
): Promise<MethodMeasureValue[]> {
  return await ws.query<MethodMeasureValue>(
    `SELECT run, topic_id, measure, value, topics FROM measures
     WHERE method = $1 ${
      opts.meansOnly ? "AND topic_id = 'all'" : ""
    } AND judge = $2 AND source = $3`,
    [method, judge, source],
  );
}

/**
 * Stores measure rows, replacing those of the same key.
 *
 * @param ws The workspace.
 * @param rows The rows (see `measureRow`).
 * @example
 * ```ts
 * import { writeMethodMeasures } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeMethodMeasures(ws, []);
 * ```
 */
export async function writeMethodMeasures(
  ws: WorkspaceLike,
  rows: readonly MeasureRow[],
): Promise<void> {
  if (rows.length) await ws.upsert("measures", rows);
}
