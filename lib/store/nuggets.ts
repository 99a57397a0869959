/**
 * The tables of nugget evaluation (`nuggets`, `nugget_passages`,
 * `nugget_assignments`): their reads, writes and clears.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** A stored nugget. */
export interface NuggetRow {
  topicId: string;
  origin: string;
  ordinal: number;
  text: string;
  importance: "vital" | "okay" | "failed" | null;
  importanceBy: string | null;
  kept: boolean | null;
  importanceCall: string | null;
  importanceRaw: string | null;
  call: string | null;
}

/**
 * The nuggets of one origin, ordered by topic and creation order.
 *
 * @param ws The workspace.
 * @param origin The origin (`created:offline`, `file:nuggets.jsonl`, ...).
 * @returns The rows (nulls kept).
 * @example
 * ```ts
 * import { readStoredNuggets } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readStoredNuggets(ws, "created:offline")).filter((n) => n.importance === "vital");
 * ```
 */
export async function readStoredNuggets(ws: WorkspaceLike, origin: string): Promise<NuggetRow[]> {
  const rows = await ws.query<NuggetRow>(
    `SELECT topic_id AS "topicId", origin, ordinal, text, importance, importance_by AS "importanceBy",
       kept, importance_call AS "importanceCall", importance_raw AS "importanceRaw", call
     FROM nuggets WHERE origin = $1 ORDER BY topic_id, ordinal`,
    [origin],
  );
  return rows.map((r) => ({ ...r, ordinal: Number(r.ordinal) }));
}

/**
 * Stores nuggets (camelCase `nuggets` records), replacing those of the same
 * topic, origin and ordinal.
 *
 * @param ws The workspace.
 * @param rows The records.
 * @example
 * ```ts
 * import { writeNuggets } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeNuggets(ws, [{ topicId: "t1", origin: "file:n.jsonl", ordinal: 1, text: "A fact.", kept: true }]);
 * ```
 */
export async function writeNuggets(ws: WorkspaceLike, rows: readonly object[]): Promise<void> {
  if (rows.length) await ws.upsert("nuggets", rows);
}

/**
 * The passages shown when the nuggets of one origin were created, ordered by
 * topic and the order they were shown.
 *
 * @param ws The workspace.
 * @param origin The nuggets' origin.
 * @returns Topic and passage text.
 * @example
 * ```ts
 * import { readNuggetPassageTexts } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readNuggetPassageTexts(ws, "created:offline")).filter((p) => p.topicId === "t1");
 * ```
 */
export async function readNuggetPassageTexts(
  ws: WorkspaceLike,
  origin: string,
): Promise<{ topicId: string; text: string }[]> {
  return await ws.query<{ topicId: string; text: string }>(
    `SELECT topic_id AS "topicId", text FROM nugget_passages WHERE origin = $1 ORDER BY topic_id, ordinal`,
    [origin],
  );
}

/**
 * Stores the passages nuggets were created from (camelCase `nugget_passages`
 * records), replacing those of the same topic, origin and ordinal.
 *
 * @param ws The workspace.
 * @param rows The records.
 * @example
 * ```ts
 * import { writeNuggetPassages } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeNuggetPassages(ws, [{ topicId: "t1", origin: "created:offline", ordinal: 1, passageId: "d1#1", windowIndex: 0, text: "...", status: "ok" }]);
 * ```
 */
export async function writeNuggetPassages(
  ws: WorkspaceLike,
  rows: readonly object[],
): Promise<void> {
  if (rows.length) await ws.upsert("nugget_passages", rows);
}

/**
 * Deletes a topic's nuggets of one origin and their assignments (and, with
 * `passages`, the passages they were created from).
 *
 * @param ws The workspace.
 * @param sel The topic and origin; `passages` also clears `nugget_passages`.
 * @example
 * ```ts
 * import { clearTopicNuggets } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await clearTopicNuggets(ws, { topicId: "t1", origin: "created:offline", passages: true });
 * ```
 */
export async function clearTopicNuggets(
  ws: WorkspaceLike,
  sel: { topicId: string; origin: string; passages?: boolean },
): Promise<void> {
  const tables = sel.passages
    ? ["nuggets", "nugget_passages", "nugget_assignments"]
    : ["nuggets", "nugget_assignments"];
  for (const table of tables) {
    await ws.exec(`DELETE FROM ${table} WHERE topic_id = $1 AND origin = $2`, [
      sel.topicId,
      sel.origin,
    ]);
  }
}

/** One stored nugget label of an answer. */
export interface NuggetLabelRow {
  run: string;
  topicId: string;
  ordinal: number;
  label: string;
}

/**
 * The labels a judge gave the answers for the nuggets of one origin, ordered by
 * run and topic.
 *
 * @param ws The workspace.
 * @param origin The nuggets' origin.
 * @param judge The assigning judge.
 * @returns Run, topic, nugget ordinal and label.
 * @example
 * ```ts
 * import { readNuggetLabels } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readNuggetLabels(ws, "created:offline", "m")).filter((l) => l.label === "support");
 * ```
 */
export async function readNuggetLabels(
  ws: WorkspaceLike,
  origin: string,
  judge: string,
): Promise<NuggetLabelRow[]> {
  return await ws.query<NuggetLabelRow>(
    `SELECT run, topic_id AS "topicId", ordinal, label FROM nugget_assignments
     WHERE origin = $1 AND judge = $2 ORDER BY run, topic_id`,
    [origin, judge],
  );
}

/** A label with the importance of its nugget. */
export interface NuggetJudgmentRow {
  run: string;
  topicId: string;
  importance: string | null;
  label: string;
}

/**
 * Each label a judge gave with its nugget's importance, ordered by run, topic and
 * nugget ordinal (labels whose nugget is gone are left out).
 *
 * @param ws The workspace.
 * @param origin The nuggets' origin.
 * @param judge The assigning judge.
 * @returns Run, topic, importance (null when unlabelled) and label.
 * @example
 * ```ts
 * import { readNuggetJudgments } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readNuggetJudgments(ws, "created:offline", "m")).filter((j) => j.importance === "vital");
 * ```
 */
export async function readNuggetJudgments(
  ws: WorkspaceLike,
  origin: string,
  judge: string,
): Promise<NuggetJudgmentRow[]> {
  return await ws.query<NuggetJudgmentRow>(
    `SELECT a.run, a.topic_id AS "topicId", n.importance, a.label
     FROM nugget_assignments a JOIN nuggets n
       ON n.topic_id = a.topic_id AND n.origin = a.origin AND n.ordinal = a.ordinal
     WHERE a.origin = $1 AND a.judge = $2 ORDER BY a.run, a.topic_id, n.ordinal`,
    [origin, judge],
  );
}

/**
 * Deletes a judge's labels of one run's answers for the nuggets of one origin.
 *
 * @param ws The workspace.
 * @param sel The run, origin and judge.
 * @returns The number of rows deleted.
 * @example
 * ```ts
 * import { clearNuggetAssignments } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await clearNuggetAssignments(ws, { run: "rag-bm25", origin: "created:offline", judge: "m" });
 * ```
 */
export async function clearNuggetAssignments(
  ws: WorkspaceLike,
  sel: { run: string; origin: string; judge: string },
): Promise<number> {
  return Number(
    await ws.exec(
      `DELETE FROM nugget_assignments WHERE run = $1 AND origin = $2 AND judge = $3`,
      [sel.run, sel.origin, sel.judge],
    ) ?? 0,
  );
}

/**
 * Stores nugget labels (camelCase `nugget_assignments` records), replacing
 * those of the same answer, nugget and judge.
 *
 * @param ws The workspace.
 * @param rows The records.
 * @example
 * ```ts
 * import { writeNuggetAssignments } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeNuggetAssignments(ws, [{ run: "a", topicId: "t1", origin: "o", ordinal: 1, judge: "m", label: "support" }]);
 * ```
 */
export async function writeNuggetAssignments(
  ws: WorkspaceLike,
  rows: readonly object[],
): Promise<void> {
  if (rows.length) await ws.upsert("nugget_assignments", rows);
}

/** A run's support of vital or okay nuggets. */
export interface NuggetSupport {
  run: string;
  /** `vital`, or `okay` for every other importance. */
  importance: string;
  /** Mean credit per assignment: support 1, partial support 0.5, else 0. */
  credit: number;
  /** Assignments whose label failed. */
  failed: number;
}

/**
 * Support credit and failed labels of one judge's assignments of nuggets of one
 * origin, per run and importance (vital, okay).
 *
 * @param ws The workspace.
 * @param origin The nugget origin (e.g. `created:offline`).
 * @param judge The assignment judge.
 * @returns The rows, in no particular order.
 * @example
 * ```ts
 * import { readNuggetSupport } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const rows = await readNuggetSupport(ws, "created:offline", "lexical-nuggets");
 * ```
 */
export async function readNuggetSupport(
  ws: WorkspaceLike,
  origin: string,
  judge: string,
): Promise<NuggetSupport[]> {
  return await ws.query<NuggetSupport>(
    `SELECT a.run, CASE WHEN n.importance = 'vital' THEN 'vital' ELSE 'okay' END AS importance,
       avg(CASE a.label WHEN 'support' THEN 1.0 WHEN 'partial_support' THEN 0.5 ELSE 0.0 END) AS credit,
       count(*) FILTER (WHERE a.label = 'failed')::INT AS failed
     FROM nugget_assignments a JOIN nuggets n USING (topic_id, origin, ordinal)
     WHERE a.origin = $1 AND a.judge = $2 GROUP BY ALL`,
    [origin, judge],
  );
}

/** One topic's nuggets: passages shown, windows, nuggets by importance, kept. */
export interface NuggetTopicCounts {
  topicId: string;
  /** Passages shown to the nugget creator (0 for imported nuggets). */
  passages: number;
  /** Windows of passages shown. */
  windows: number;
  /** Windows whose output could not be read (the topic's list missed them). */
  failedWindows: number;
  nuggets: number;
  vital: number;
  okay: number;
  /** Nuggets whose importance label failed. */
  failed: number;
  /** Nuggets not marked as dropped. */
  kept: number;
}

/**
 * Counts of the nuggets of one origin per topic, and of the passages and
 * windows shown to create them.
 *
 * @param ws The workspace.
 * @param origin The nugget origin.
 * @returns One row per topic with nuggets or passages shown, in no particular order.
 * @example
 * ```ts
 * import { readNuggetTopicCounts } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const rows = await readNuggetTopicCounts(ws, "created:offline");
 * ```
 */
export async function readNuggetTopicCounts(
  ws: WorkspaceLike,
  origin: string,
): Promise<NuggetTopicCounts[]> {
  return await ws.query<NuggetTopicCounts>(
    `SELECT coalesce(n.topic_id, p.topic_id) AS "topicId",
       coalesce(p.passages, 0)::INT AS passages, coalesce(p.windows, 0)::INT AS windows,
       coalesce(p.failed_windows, 0)::INT AS "failedWindows",
       coalesce(n.nuggets, 0)::INT AS nuggets, coalesce(n.vital, 0)::INT AS vital,
       coalesce(n.okay, 0)::INT AS okay, coalesce(n.failed, 0)::INT AS failed,
       coalesce(n.kept, 0)::INT AS kept
     FROM (
       SELECT topic_id, count(*) AS nuggets,
         count(*) FILTER (WHERE importance = 'vital') AS vital,
         count(*) FILTER (WHERE importance = 'okay') AS okay,
         count(*) FILTER (WHERE importance = 'failed') AS failed,
         count(*) FILTER (WHERE kept IS NOT false) AS kept
       FROM nuggets WHERE origin = $1 GROUP BY topic_id) n
     FULL OUTER JOIN (
       SELECT topic_id, count(*) AS passages, count(DISTINCT window_index) AS windows,
         count(DISTINCT window_index) FILTER (WHERE status = 'failed') AS failed_windows
       FROM nugget_passages WHERE origin = $1 GROUP BY topic_id) p ON p.topic_id = n.topic_id`,
    [origin],
  );
}

/**
 * Deletes everything of one nugget origin: its nuggets, their passages and their
 * assignments.
 *
 * @param ws The workspace.
 * @param origin The nugget origin.
 * @example
 * ```ts
 * import { clearNuggetOrigin } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearNuggetOrigin(ws, "file:nuggets.jsonl");
 * ```
 */
export async function clearNuggetOrigin(ws: WorkspaceLike, origin: string): Promise<void> {
  for (const t of ["nuggets", "nugget_passages", "nugget_assignments"]) {
    await ws.exec(`DELETE FROM ${t} WHERE origin = $1`, [origin]);
  }
}

/**
 * Forgets the importance labels of one origin's nuggets (every nugget kept
 * again); labels read from a file (`importance_by = 'file'`) stay.
 *
 * @param ws The workspace.
 * @param origin The nugget origin.
 * @example
 * ```ts
 * import { clearNuggetImportance } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearNuggetImportance(ws, "llm:model");
 * ```
 */
export async function clearNuggetImportance(ws: WorkspaceLike, origin: string): Promise<void> {
  await ws.exec(
    `UPDATE nuggets SET importance = NULL, importance_by = NULL, importance_call = NULL,
       importance_raw = NULL, kept = true
     WHERE origin = $1 AND importance_by IS DISTINCT FROM 'file'`,
    [origin],
  );
}

/**
 * The origins of the stored nuggets, in name order.
 *
 * @param ws The workspace.
 * @returns The origins.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readNuggetOrigins } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * assert.deepEqual(await readNuggetOrigins(ws), []); // in a new workspace
 * ```
 */
export async function readNuggetOrigins(ws: WorkspaceLike): Promise<string[]> {
  return (await ws.query<{ origin: string }>(`SELECT DISTINCT origin FROM nuggets ORDER BY 1`))
    .map((r) => r.origin);
}
