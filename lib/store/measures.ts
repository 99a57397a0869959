/**
 * The measure table `measures`: one filtered reader ({@linkcode readMeasures}),
 * one filtered delete ({@linkcode deleteMeasures}) and the one writer
 * ({@linkcode writeMeasures}): every stage and command that stores a measure
 * calls it (no file outside `lib/store` writes the table); and the fingerprint of
 * the measure step's inputs (recorded in the memo, kind `measure`, see `memo.ts`).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";
import { readMetaJson, writeMetaJson } from "./meta_json.ts";
import { meanTopicId } from "./mean_topic_id.ts";
import type { MeasureRow } from "@lib/types/mod.ts";

/** `$first, $first+1, ...` placeholders for `n` values. */
const placeholders = (n: number, first: number) =>
  Array.from({ length: n }, (_, i) => `$${i + first}`).join(", ");

/**
 * Which rows of `measures` {@linkcode readMeasures} and {@linkcode deleteMeasures}
 * take: every field given narrows (all must hold); a list matches any of its
 * values, and an empty list matches no row.
 */
export interface MeasureFilter {
  /** Evaluation method(s) (`trec`, `crux`, `nuggets`, `keypoints`, `subq`, `compare`, `judge-variance`). */
  method?: string | readonly string[];
  run?: string | readonly string[];
  /** Only this topic (`all`: the means over topics). */
  topicId?: string;
  /** Only per-topic rows (no mean: topic not `all` nor `all:<dataset>`). */
  perTopic?: boolean;
  /** Only means: the run's (`all`) and each dataset's (`all:<dataset>`). */
  means?: boolean;
  /** Measure key(s) as printed (`Cov@10`, `KPR`). */
  measure?: string | readonly string[];
  /** Measure keys starting with this text (`Cov(`). */
  measurePrefix?: string;
  /** Measure name(s) without parameters or cutoff (`Cov`, `Den`). */
  name?: string | readonly string[];
  judge?: string | readonly string[];
  /** Sample judges of the judge-variance stage (`<judge>#s<i>`): `only` them, or `exclude` them. */
  sampleJudges?: "only" | "exclude";
  source?: string | readonly string[];
  /** Sources starting with any of these texts (`contexts(tau=`). */
  sourcePrefix?: string | readonly string[];
  /** Sources left out. */
  notSource?: readonly string[];
  /** Only these (judge, source) pairs. */
  judgeSources?: readonly { judge: string; source: string }[];
  /** Only rows with a value (not null). */
  hasValue?: boolean;
}

/**
 * The rows the measure step owns: methods `trec` and `crux`, the answer-level
 * sources `report` and `context` (written by report judging) and a human
 * study's `human-study` rows (written by its own stage) excepted.
 */
export const MEASURE_STEP_ROWS: Readonly<MeasureFilter> = {
  method: ["trec", "crux"],
  notSource: ["report", "context", "human-study"],
};

/** The answer-level rows report judging writes: sources `report` and `context`. */
export const ANSWER_ROWS: Readonly<MeasureFilter> = { source: ["report", "context"] };

/** The WHERE clause of a filter, or undefined when it matches no row (an empty list). */
function whereOf(f: MeasureFilter): { sql: string; params: unknown[] } | undefined {
  const parts: string[] = [];
  const params: unknown[] = [];
  const next = (v: unknown) => (params.push(v), `$${params.length}`);
  const list = (v: string | readonly string[]) => typeof v === "string" ? [v] : v;
  const oneOf = (column: string, v: string | readonly string[] | undefined): boolean => {
    if (v === undefined) return true;
    const values = list(v);
    if (values.length === 0) return false;
    parts.push(
      values.length === 1
        ? `${column} = ${next(values[0])}`
        : `${column} IN (${placeholders(values.length, params.length + 1)})`,
    );
    if (values.length > 1) params.push(...values);
    return true;
  };
  if (
    !oneOf("method", f.method) || !oneOf("run", f.run) || !oneOf("measure", f.measure) ||
    !oneOf("name", f.name) || !oneOf("judge", f.judge) || !oneOf("source", f.source)
  ) return undefined;
  if (f.topicId !== undefined) parts.push(`topic_id = ${next(f.topicId)}`);
  if (f.perTopic) parts.push(meanTopicId.perTopicSql);
  if (f.means) parts.push(`NOT (${meanTopicId.perTopicSql})`);
  if (f.measurePrefix !== undefined) parts.push(`starts_with(measure, ${next(f.measurePrefix)})`);
  if (f.sampleJudges) {
    parts.push(`${f.sampleJudges === "exclude" ? "NOT " : ""}regexp_matches(judge, '#s[0-9]+$')`);
  }
  if (f.sourcePrefix !== undefined) {
    const prefixes = list(f.sourcePrefix);
    if (prefixes.length === 0) return undefined;
    parts.push(`(${prefixes.map((x) => `starts_with(source, ${next(x)})`).join(" OR ")})`);
  }
  if (f.notSource?.length) {
    parts.push(`source NOT IN (${placeholders(f.notSource.length, params.length + 1)})`);
    params.push(...f.notSource);
  }
  if (f.judgeSources !== undefined) {
    if (f.judgeSources.length === 0) return undefined;
    const pairs = f.judgeSources.map((p) =>
      `(judge = ${next(p.judge)} AND source = ${next(p.source)})`
    );
    parts.push(`(${pairs.join(" OR ")})`);
  }
  if (f.hasValue) parts.push("value IS NOT NULL");
  return { sql: parts.length ? parts.join(" AND ") : "true", params };
}

/**
 * A stored row of `measures`, as {@linkcode readMeasures} returns it; `V` is
 * `number` when the filter asked for rows with a value (`hasValue: true`).
 */
export interface MeasureValueRow<V extends number | null = number | null> {
  run: string;
  /** Topic id, or `all` for the mean over topics. */
  topicId: string;
  measure: string;
  name: string;
  cutoff: string;
  method: string;
  judge: string;
  source: string;
  /** The value; null where none could be computed (judge-variance statistics). */
  value: V;
  /** Topics averaged (aggregate rows only). */
  topics: number | null;
  /** The topics the value is over (`answerable(tau=3,n=49)`, `topic(id=t1)`), null where none is stated. */
  topicSet: string | null;
}

/** Columns {@linkcode readMeasures} can order by. */
export type MeasureOrder = "run" | "topicId" | "measure" | "judge" | "source" | "method";

const ORDER_COLUMN: Record<MeasureOrder, string> = {
  run: "run",
  topicId: "topic_id",
  measure: "measure",
  judge: "judge",
  source: "source",
  method: "method",
};

/**
 * The rows of `measures` a filter takes, ordered by `orderBy` (default: run,
 * topic, measure, judge, source: the table's key), ties by the table's key.
 *
 * @param ws The workspace.
 * @param f The filter (see {@linkcode MeasureFilter}); `{}` reads every row.
 * @param orderBy Columns to order by first.
 * @returns The rows.
 * @example
 * ```ts
 * import { importSample, openWorkspace, readMeasures } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readMeasures(ws, { method: "crux", source: "report", name: "Cov", topicId: "all" });
 * ```
 */
export async function readMeasures<F extends MeasureFilter>(
  ws: WorkspaceLike,
  f: F,
  orderBy: readonly MeasureOrder[] = [],
): Promise<MeasureValueRow<F extends { hasValue: true } ? number : number | null>[]> {
  const w = whereOf(f);
  if (!w) return [];
  const order = [
    ...orderBy.map((o) => ORDER_COLUMN[o]),
    "run",
    "topic_id",
    "measure",
    "judge",
    "source",
  ];
  const rows = await ws.query<MeasureValueRow>(
    `SELECT run, topic_id, measure, name, cutoff, method, judge, source, value, topics, topic_set
     FROM measures WHERE ${w.sql} ORDER BY ${[...new Set(order)].join(", ")}`,
    w.params,
  );
  return rows.map((r) => ({
    ...r,
    value: r.value === null ? null : Number(r.value),
    topics: r.topics === null || r.topics === undefined ? null : Number(r.topics),
    topicSet: r.topicSet ?? null,
  })) as MeasureValueRow<F extends { hasValue: true } ? number : number | null>[];
}

/**
 * Deletes the rows of `measures` a filter takes. An empty filter `{}` is refused:
 * name what goes.
 *
 * @param ws The workspace.
 * @param f The filter (see {@linkcode MeasureFilter}).
 * @returns The number of rows deleted.
 * @throws {RangeError} When the filter is empty.
 * @example
 * ```ts
 * import { deleteMeasures, MEASURE_STEP_ROWS, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await deleteMeasures(ws, { ...MEASURE_STEP_ROWS, run: "bm25", judge: "human", topicId: "all" });
 * ```
 */
export async function deleteMeasures(ws: WorkspaceLike, f: MeasureFilter): Promise<number> {
  if (Object.values(f).every((v) => v === undefined)) {
    throw new RangeError("Cannot delete measures with an empty filter: name what goes");
  }
  const w = whereOf(f);
  if (!w) return 0;
  return Number(await ws.exec(`DELETE FROM measures WHERE ${w.sql}`, w.params) ?? 0);
}

/**
 * The (judge, source) pairs of some rows with their row counts, the most rows
 * first, ties by judge, then source: the first is the default pair of an analysis.
 *
 * @param rows Rows of `measures` (see {@linkcode readMeasures}).
 * @returns The pairs.
 * @example
 * ```ts
 * import { judgeSourceCounts } from "@lib/store/mod.ts";
 * judgeSourceCounts([{ judge: "j", source: "s" }, { judge: "j", source: "s" }, { judge: "a", source: "s" }]);
 * // [{ judge: "j", source: "s", n: 2 }, { judge: "a", source: "s", n: 1 }]
 * ```
 */
export function judgeSourceCounts(
  rows: readonly { judge: string; source: string }[],
): { judge: string; source: string; n: number }[] {
  const counts = new Map<string, { judge: string; source: string; n: number }>();
  for (const r of rows) {
    const key = JSON.stringify([r.judge, r.source]);
    const c = counts.get(key) ?? { judge: r.judge, source: r.source, n: 0 };
    c.n++;
    counts.set(key, c);
  }
  const byte = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;
  return [...counts.values()].sort((a, b) =>
    b.n - a.n || byte(a.judge, b.judge) || byte(a.source, b.source)
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
      `FROM ratings r JOIN rated_items i USING (topic_id, item_id, judge)
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
  /** The topics the value is over (see `MeasureValueRow`); absent or null where none is stated. */
  topicSet?: string | null;
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
  await deleteMeasures(ws, { run, sourcePrefix: ["contexts(tau=", "ranking(tau="] });
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

/**
 * Stores measure rows, replacing those of the same key.
 *
 * @param ws The workspace.
 * @param rows The rows (see `measureRow`); a null value is a statistic that could not be computed.
 * @example
 * ```ts
 * import { writeMeasures } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeMeasures(ws, []);
 * ```
 */
export async function writeMeasures(
  ws: WorkspaceLike,
  rows: readonly (Omit<MeasureRow, "value"> & { value: number | null })[],
): Promise<void> {
  if (rows.length) await ws.upsert("measures", rows);
}
