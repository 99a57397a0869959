/**
 * The tables of sub-question coverage by type (`subq_questions`, `subq_failures`,
 * `subq_coverage`, `subq_pairwise`, `subq_preferences`): their reads, writes and
 * clears.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** A stored sub-question of a topic (`type` null until classified). */
export interface SubqQuestionRow {
  topicId: string;
  ordinal: number;
  text: string;
  type: string | null;
}

/**
 * The sub-questions of one origin, ordered by topic and ordinal.
 *
 * @param ws The workspace.
 * @param source The origin (`decompose`, `crux`, a file).
 * @returns The rows, types null where not classified yet.
 * @example
 * ```ts
 * import { readSubqQuestions } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readSubqQuestions(ws, "decompose")).filter((q) => q.type === "core");
 * ```
 */
export async function readSubqQuestions(
  ws: WorkspaceLike,
  source: string,
): Promise<SubqQuestionRow[]> {
  return await ws.query<SubqQuestionRow>(
    `SELECT topic_id AS "topicId", ordinal, text, type FROM subq_questions WHERE source = $1
     ORDER BY topic_id, ordinal`,
    [source],
  );
}

/**
 * The topics that have sub-questions of one origin (in no particular order).
 *
 * @param ws The workspace.
 * @param source The origin.
 * @returns Topic ids, each once.
 * @example
 * ```ts
 * import { readSubqTopicIds } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const done = new Set(await readSubqTopicIds(ws, "decompose"));
 * ```
 */
export async function readSubqTopicIds(ws: WorkspaceLike, source: string): Promise<string[]> {
  return (await ws.query<{ topicId: string }>(
    `SELECT DISTINCT topic_id AS "topicId" FROM subq_questions WHERE source = $1`,
    [source],
  )).map((r) => r.topicId);
}

/**
 * Stores sub-questions (camelCase `subq_questions` records), replacing rows with
 * the same topic, source and ordinal.
 *
 * @param ws The workspace.
 * @param rows Records with `topicId`, `source`, `ordinal`, `text` and optionally `type`, `decomposer`, `classifier`.
 * @example
 * ```ts
 * import { writeSubqQuestions } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeSubqQuestions(ws, [{ topicId: "t1", source: "decompose", ordinal: 1, text: "Who?" }]);
 * ```
 */
export async function writeSubqQuestions(
  ws: WorkspaceLike,
  rows: readonly object[],
): Promise<void> {
  if (rows.length) await ws.upsert("subq_questions", rows);
}

/**
 * Sets the type and classifier of one stored sub-question.
 *
 * @param ws The workspace.
 * @param row The sub-question (topic, source, ordinal) and its type and classifier.
 * @returns The number of rows changed (0 when there is no such sub-question).
 * @example
 * ```ts
 * import { setSubqType } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await setSubqType(ws, { topicId: "t1", source: "decompose", ordinal: 1, type: "core", classifier: "offline" });
 * ```
 */
export async function setSubqType(
  ws: WorkspaceLike,
  row: { topicId: string; source: string; ordinal: number; type: string; classifier: string },
): Promise<number> {
  return Number(
    await ws.exec(
      `UPDATE subq_questions SET type = $1, classifier = $2
       WHERE topic_id = $3 AND source = $4 AND ordinal = $5`,
      [row.type, row.classifier, row.topicId, row.source, row.ordinal],
    ) ?? 0,
  );
}

/**
 * Records steps that left a topic without output (camelCase `subq_failures`
 * records), replacing the row of the same topic, source and step.
 *
 * @param ws The workspace.
 * @param rows Records with `topicId`, `source`, `step`, `status`, `raw`, `backend`.
 * @example
 * ```ts
 * import { writeSubqFailures } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeSubqFailures(ws, [{ topicId: "t1", source: "decompose", step: "decompose", status: "failed", raw: "", backend: "m" }]);
 * ```
 */
export async function writeSubqFailures(
  ws: WorkspaceLike,
  rows: readonly object[],
): Promise<void> {
  if (rows.length) await ws.upsert("subq_failures", rows);
}

/** A stored coverage judgment, keyed by text key and sub-question joined by a NUL. */
export interface SubqCoverageVerdict {
  /** `text_key + "\0" + sub_question`. */
  k: string;
  answered: boolean | null;
  position: number | null;
}

/**
 * The coverage judgments of one judge (in no particular order).
 *
 * @param ws The workspace.
 * @param judge The coverage judge's name.
 * @returns Key (`textKey\0subQuestion`), answered (null when unparsed or failed) and position.
 * @example
 * ```ts
 * import { readSubqCoverage } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const judged = new Map((await readSubqCoverage(ws, "m")).map((r) => [r.k, r]));
 * ```
 */
export async function readSubqCoverage(
  ws: WorkspaceLike,
  judge: string,
): Promise<SubqCoverageVerdict[]> {
  return await ws.query<SubqCoverageVerdict>(
    `SELECT text_key || chr(0) || sub_question AS k, answered, position FROM subq_coverage
     WHERE judge = $1`,
    [judge],
  );
}

/**
 * The keys (`textKey\0subQuestion`) a judge has a judgment for that did not fail
 * (answered or unparsed), so a re-run asks only the failed and missing ones.
 *
 * @param ws The workspace.
 * @param judge The coverage judge's name.
 * @returns The keys (in no particular order).
 * @example
 * ```ts
 * import { readSubqCoverageDone } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const done = new Set(await readSubqCoverageDone(ws, "m"));
 * ```
 */
export async function readSubqCoverageDone(ws: WorkspaceLike, judge: string): Promise<string[]> {
  return (await ws.query<{ k: string }>(
    `SELECT text_key || chr(0) || sub_question AS k FROM subq_coverage
     WHERE judge = $1 AND status <> 'failed'`,
    [judge],
  )).map((r) => r.k);
}

/**
 * Stores coverage judgments (camelCase `subq_coverage` records), replacing those
 * of the same text key, sub-question and judge.
 *
 * @param ws The workspace.
 * @param rows Records with `textKey`, `subQuestion`, `judge` and the verdict's fields.
 * @example
 * ```ts
 * import { writeSubqCoverage } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeSubqCoverage(ws, [{ textKey: "ab12", subQuestion: "Who?", judge: "m", answered: true, status: "ok" }]);
 * ```
 */
export async function writeSubqCoverage(
  ws: WorkspaceLike,
  rows: readonly object[],
): Promise<void> {
  if (rows.length) await ws.upsert("subq_coverage", rows);
}

/**
 * Deletes a judge's pairwise verdicts between runs that are both in `runs`.
 *
 * @param ws The workspace.
 * @param judge The pairwise judge.
 * @param runs The runs compared.
 * @returns The number of rows deleted.
 * @example
 * ```ts
 * import { clearSubqPairwise } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await clearSubqPairwise(ws, "m", ["rag-bm25", "direct"]);
 * ```
 */
export async function clearSubqPairwise(
  ws: WorkspaceLike,
  judge: string,
  runs: readonly string[],
): Promise<number> {
  return Number(
    await ws.exec(
      `DELETE FROM subq_pairwise WHERE judge = $1 AND list_contains($2::JSON::VARCHAR[], run_a)
       AND list_contains($2::JSON::VARCHAR[], run_b)`,
      [judge, JSON.stringify(runs)],
    ) ?? 0,
  );
}

/**
 * Stores pairwise verdicts (camelCase `subq_pairwise` records), replacing those
 * of the same topic, runs and judge.
 *
 * @param ws The workspace.
 * @param rows Records with `topicId`, `runA`, `runB`, `judge`, `forward`, `swapped`, `verdict`.
 * @example
 * ```ts
 * import { writeSubqPairwise } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeSubqPairwise(ws, [{ topicId: "t1", runA: "a", runB: "b", judge: "m", verdict: "A" }]);
 * ```
 */
export async function writeSubqPairwise(
  ws: WorkspaceLike,
  rows: readonly object[],
): Promise<void> {
  if (rows.length) await ws.upsert("subq_pairwise", rows);
}

/**
 * Replaces the rows of one preference set in `subq_preferences`: deletes every
 * row of `source`, then stores `rows`.
 *
 * @param ws The workspace.
 * @param source The preference set's name.
 * @param rows Its records (camelCase `subq_preferences` fields, `source` = `source`).
 * @example
 * ```ts
 * import { replaceSubqPreferences } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await replaceSubqPreferences(ws, "preferences.jsonl", []);
 * ```
 */
export async function replaceSubqPreferences(
  ws: WorkspaceLike,
  source: string,
  rows: readonly object[],
): Promise<void> {
  await ws.exec(`DELETE FROM subq_preferences WHERE source = $1`, [source]);
  await ws.upsert("subq_preferences", rows);
}

/**
 * The coverage judge with the most judgments (ties by name).
 *
 * @param ws The workspace.
 * @returns The judge, or undefined when no coverage is stored.
 * @example
 * ```ts
 * import { readMainSubqCoverageJudge } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const judge = await readMainSubqCoverageJudge(ws);
 * ```
 */
export async function readMainSubqCoverageJudge(ws: WorkspaceLike): Promise<string | undefined> {
  return (await ws.query<{ judge: string }>(
    `SELECT judge FROM subq_coverage GROUP BY judge ORDER BY count(*) DESC, judge LIMIT 1`,
  ))[0]?.judge;
}

/**
 * The backends that made the sub-questions of one source: decomposers first,
 * then classifiers, each in name order (a backend may appear in both lists).
 *
 * @param ws The workspace.
 * @param source The sub-question source (e.g. `decompose`).
 * @returns The backend names.
 * @example
 * ```ts
 * import { readSubqBackends } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const backends = await readSubqBackends(ws, "decompose");
 * ```
 */
export async function readSubqBackends(ws: WorkspaceLike, source: string): Promise<string[]> {
  return (await ws.query<{ b: string }>(
    `SELECT b FROM (SELECT DISTINCT decomposer AS b, 0 AS k FROM subq_questions WHERE source = $1
       UNION SELECT DISTINCT classifier, 1 FROM subq_questions
       WHERE source = $1 AND classifier IS NOT NULL) ORDER BY k, b`,
    [source],
  )).map((r) => r.b);
}

/** One stored preference pair with the judge's verdicts. */
export interface SubqPreferenceRow {
  /** The preference set (file). */
  source: string;
  /** The preferred answer of the set. */
  human: "A" | "B" | "tie";
  /** JSON text of answer A's items. */
  itemsA: string;
  /** JSON text of answer B's items. */
  itemsB: string;
  /** The pairwise judge's verdict. */
  pairwise: string;
  pairwiseJudge: string;
}

/**
 * Every stored preference pair, ordered by set, then pair.
 *
 * @param ws The workspace.
 * @returns The rows.
 * @example
 * ```ts
 * import { readSubqPreferenceRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const sets = new Set((await readSubqPreferenceRows(ws)).map((p) => p.source));
 * ```
 */
export async function readSubqPreferenceRows(ws: WorkspaceLike): Promise<SubqPreferenceRow[]> {
  return await ws.query<SubqPreferenceRow>(
    `SELECT source, human, items_a::VARCHAR AS "itemsA", items_b::VARCHAR AS "itemsB", pairwise,
       pairwise_judge AS "pairwiseJudge" FROM subq_preferences ORDER BY source, pair`,
  );
}

/** One pairwise verdict between two runs on a topic. */
export interface SubqPairwiseVerdict {
  topicId: string;
  runA: string;
  runB: string;
  verdict: "A" | "B" | "tie";
  judge: string;
}

/**
 * Every stored pairwise verdict, ordered by all columns.
 *
 * @param ws The workspace.
 * @returns The verdicts.
 * @example
 * ```ts
 * import { readSubqPairwiseVerdicts } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const verdicts = await readSubqPairwiseVerdicts(ws);
 * ```
 */
export async function readSubqPairwiseVerdicts(
  ws: WorkspaceLike,
): Promise<SubqPairwiseVerdict[]> {
  return await ws.query<SubqPairwiseVerdict>(
    `SELECT topic_id AS "topicId", run_a AS "runA", run_b AS "runB", verdict, judge FROM subq_pairwise ORDER BY ALL`,
  );
}

/**
 * Deletes the sub-questions of one source and the topics recorded as failed for it.
 *
 * @param ws The workspace.
 * @param source The sub-question source (`decompose`, `crux`, ...).
 * @example
 * ```ts
 * import { clearSubquestionSource } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearSubquestionSource(ws, "decompose");
 * ```
 */
export async function clearSubquestionSource(ws: WorkspaceLike, source: string): Promise<void> {
  await ws.exec(`DELETE FROM subq_questions WHERE source = $1`, [source]);
  await ws.exec(`DELETE FROM subq_failures WHERE source = $1`, [source]);
}

/**
 * Forgets the types of one source's sub-questions (type and classifier set to null).
 *
 * @param ws The workspace.
 * @param source The sub-question source.
 * @example
 * ```ts
 * import { clearSubquestionTypes } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearSubquestionTypes(ws, "decompose");
 * ```
 */
export async function clearSubquestionTypes(ws: WorkspaceLike, source: string): Promise<void> {
  await ws.exec(
    `UPDATE subq_questions SET type = NULL, classifier = NULL WHERE source = $1`,
    [source],
  );
}

/**
 * Deletes one judge's coverage judgments.
 *
 * @param ws The workspace.
 * @param judge The coverage judge.
 * @example
 * ```ts
 * import { clearSubqCoverage } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearSubqCoverage(ws, "offline:coverage");
 * ```
 */
export async function clearSubqCoverage(ws: WorkspaceLike, judge: string): Promise<void> {
  await ws.exec(`DELETE FROM subq_coverage WHERE judge = $1`, [judge]);
}

/**
 * Deletes every pairwise verdict.
 *
 * @param ws The workspace.
 * @example
 * ```ts
 * import { clearAllSubqPairwise } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearAllSubqPairwise(ws);
 * ```
 */
export async function clearAllSubqPairwise(ws: WorkspaceLike): Promise<void> {
  await ws.exec(`DELETE FROM subq_pairwise`);
}

/**
 * Deletes the judged preference pairs of one preference set, or of every set.
 *
 * @param ws The workspace.
 * @param source The set's name (its file's name, as the stage names it). Default: every set.
 * @example
 * ```ts
 * import { clearSubqPreferences } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearSubqPreferences(ws, "preferences.jsonl");
 * ```
 */
export async function clearSubqPreferences(ws: WorkspaceLike, source?: string): Promise<void> {
  if (source === undefined) await ws.exec(`DELETE FROM subq_preferences`);
  else await ws.exec(`DELETE FROM subq_preferences WHERE source = $1`, [source]);
}
