/**
 * Reads of the `generations` table (generated reports and the human reference
 * summaries, run `oracle-result`) beyond the typed record readers.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";
import type { Generation } from "@lib/types/mod.ts";

/**
 * Topics for which a run has a stored report.
 *
 * @param ws The workspace.
 * @param run The generation run (e.g. `rag-bm25`, `oracle-result`).
 * @returns The topic ids, in no particular order.
 * @example
 * ```ts
 * import { readGeneratedTopics } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const done = new Set(await readGeneratedTopics(ws, "rag-bm25"));
 * ```
 */
export async function readGeneratedTopics(ws: WorkspaceLike, run: string): Promise<string[]> {
  return (await ws.query<{ topicId: string }>(
    `SELECT topic_id AS "topicId" FROM generations WHERE run = $1`,
    [run],
  )).map((r) => r.topicId);
}

/**
 * Runs whose every report is empty or white space only.
 *
 * @param ws The workspace.
 * @returns The run names, in name order.
 * @example
 * ```ts
 * import { readEmptyGenerationRuns } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const empty = await readEmptyGenerationRuns(ws); // e.g. ["direct"]
 * ```
 */
export async function readEmptyGenerationRuns(ws: WorkspaceLike): Promise<string[]> {
  return (await ws.query<{ run: string }>(
    `SELECT run FROM generations GROUP BY run
     HAVING bool_and(coalesce(trim(text), '') = '') ORDER BY run`,
  )).map((e) => e.run);
}

/** The lengths of one stored report. */
export interface GenerationLength {
  run: string;
  topicId: string;
  /** Tokens of the report; null when not counted. */
  response: number | null;
  /**
   * Tokens of the passages of its context (the stored `context_ids` found in
   * `passages`); null when it has no context or none of its passages is stored.
   */
  input: number | null;
}

/**
 * The response and input length of every stored report.
 *
 * @param ws The workspace.
 * @returns One row per report, by run then topic (byte order), whatever order they were stored in.
 * @example
 * ```ts
 * import { readGenerationLengths } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const long = (await readGenerationLengths(ws)).filter((l) => (l.input ?? 0) > 1000);
 * ```
 */
export async function readGenerationLengths(ws: WorkspaceLike): Promise<GenerationLength[]> {
  return await ws.query<GenerationLength>(
    `SELECT g.run, g.topic_id, g.tokens AS response,
       (SELECT sum(p.tokens) FROM passages p WHERE list_contains(g.context_ids, p.passage_id))::INT AS input
     FROM generations g ORDER BY g.run, g.topic_id`,
  );
}

/**
 * The stored reports (every generation run, or one), ordered by run and topic,
 * with their condition, backend, context passage ids and token count.
 *
 * @param ws The workspace.
 * @param run Only this generation run. Default: every run.
 * @returns The generations, by run then topic.
 * @example
 * ```ts
 * import { readGenerationsByRun } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readGenerationsByRun(ws, "rag-bm25")).length;
 * ```
 */
export async function readGenerationsByRun(
  ws: WorkspaceLike,
  run?: string,
): Promise<Generation[]> {
  return await ws.query<Generation>(
    `SELECT run, topic_id AS "topicId", text, condition, backend, context_ids AS "contextIds", tokens
     FROM generations ${run === undefined ? "" : "WHERE run = $1"} ORDER BY run, topic_id`,
    run === undefined ? [] : [run],
  );
}

/** A generated answer with its context passages (null when it has none recorded). */
export interface GeneratedAnswer {
  run: string;
  topicId: string;
  text: string;
  contextIds: string[] | null;
}

/**
 * The answers of some runs (every run without `runs`), ordered by run and topic.
 *
 * @param ws The workspace.
 * @param runs The runs to read; all runs when absent.
 * @returns Run, topic, text and context passage ids.
 * @example
 * ```ts
 * import { readGeneratedAnswers } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readGeneratedAnswers(ws, ["rag-bm25"])).map((a) => a.topicId);
 * ```
 */
export async function readGeneratedAnswers(
  ws: WorkspaceLike,
  runs?: readonly string[],
): Promise<GeneratedAnswer[]> {
  return runs === undefined
    ? await ws.query<GeneratedAnswer>(
      `SELECT run, topic_id AS "topicId", text, context_ids AS "contextIds" FROM generations
       ORDER BY run, topic_id`,
    )
    : await ws.query<GeneratedAnswer>(
      `SELECT run, topic_id AS "topicId", text, context_ids AS "contextIds" FROM generations
       WHERE list_contains($1::JSON::VARCHAR[], run) ORDER BY run, topic_id`,
      [JSON.stringify(runs)],
    );
}

/**
 * Stores generated answers, replacing those of the same run and topic.
 *
 * @param ws The workspace.
 * @param rows The answers.
 * @example
 * ```ts
 * import { writeGenerationRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeGenerationRows(ws, [{ run: "rag", topicId: "t1", text: "An answer.", condition: "file" }]);
 * ```
 */
export async function writeGenerationRows(
  ws: WorkspaceLike,
  rows: readonly Generation[],
): Promise<void> {
  if (rows.length) await ws.upsert("generations", rows);
}

/**
 * Deletes a generated run's reports (its `generation_info` record stays).
 *
 * @param ws The workspace.
 * @param run The generated run.
 * @example
 * ```ts
 * import { clearGenerations } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearGenerations(ws, "rag-bm25");
 * ```
 */
export async function clearGenerations(ws: WorkspaceLike, run: string): Promise<void> {
  await ws.exec("DELETE FROM generations WHERE run = $1", [run]);
}

/** One report of a run as {@linkcode readRunReports} returns it. */
export interface RunReport {
  topicId: string;
  /** The text (null where none was stored). */
  text: string | null;
  /** Passage ids of its context (null for runs without one). */
  contextIds: string[] | null;
}

/**
 * A generated run's reports in topic order: text and context passage ids.
 *
 * @param ws The workspace.
 * @param run The generated run.
 * @returns The reports.
 * @example
 * ```ts
 * import { readRunReports } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readRunReports(ws, "rag-bm25");
 * ```
 */
export async function readRunReports(ws: WorkspaceLike, run: string): Promise<RunReport[]> {
  return await ws.query<RunReport>(
    "SELECT topic_id, text, context_ids FROM generations WHERE run = $1 ORDER BY topic_id",
    [run],
  );
}
