/**
 * The key point tables of key point recall: reads and writes of the stored key
 * points (`keypoints`, both levels, by source).
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** A stored key point. */
export interface KeypointRow {
  topicId: string;
  keypointId: string;
  text: string;
  docId: string | null;
  spans: string[];
  spanStatus: ("exact" | "normalized" | "missing")[] | null;
  mergedFrom: string[];
}

/**
 * The origins that have key points of one level, in name order.
 *
 * @param ws The workspace.
 * @param level `original` or `merged`.
 * @returns The sources (`extracted:<backend>`, `file:<basename>`).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readKeypointSources, writeKeypointRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * // merged key points of one source (normally written by the key point stages)
 * await writeKeypointRows(ws, [{
 *   topicId: "sample-01", keypointId: "k1", level: "merged", text: "A.", spans: [], mergedFrom: [],
 *   source: "extracted:offline",
 * }]);
 * assert.deepEqual(await readKeypointSources(ws, "merged"), ["extracted:offline"]);
 * ```
 */
export async function readKeypointSources(
  ws: WorkspaceLike,
  level: "original" | "merged",
): Promise<string[]> {
  return (await ws.query<{ source: string }>(
    "SELECT DISTINCT source FROM keypoints WHERE level = $1 ORDER BY source",
    [level],
  )).map((r) => r.source);
}

/**
 * The key points of one level and source (in no particular order).
 *
 * @param ws The workspace.
 * @param level `original` or `merged`.
 * @param source The key point origin.
 * @returns The rows, nulls kept.
 * @example
 * ```ts
 * import { readKeypointRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * (await readKeypointRows(ws, "merged", "extracted:offline")).length;
 * ```
 */
export async function readKeypointRows(
  ws: WorkspaceLike,
  level: "original" | "merged",
  source: string,
): Promise<KeypointRow[]> {
  return await ws.query<KeypointRow>(
    `SELECT topic_id, keypoint_id, text, doc_id, spans, span_status, merged_from FROM keypoints
     WHERE level = $1 AND source = $2`,
    [level, source],
  );
}

/**
 * Stores key points (camelCase `keypoints` records), replacing those of the same
 * topic, id, level and source.
 *
 * @param ws The workspace.
 * @param rows The records.
 * @example
 * ```ts
 * import { writeKeypointRows } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeKeypointRows(ws, [{ topicId: "t1", keypointId: "k1", level: "merged", text: "A.", spans: [], mergedFrom: [], source: "file:kp.jsonl" }]);
 * ```
 */
export async function writeKeypointRows(ws: WorkspaceLike, rows: readonly object[]): Promise<void> {
  if (rows.length) await ws.upsert("keypoints", rows);
}

/** A stored key point (original or merged) with its span checks. */
export interface StoredKeyPoint {
  topicId: string;
  keypointId: string;
  /** `original` (extracted from one document) or `merged`. */
  level: string;
  text: string;
  docId: string | null;
  /** Per span: `exact`, `normalized` or `missing`; null when not checked. */
  spanStatus: string[] | null;
  /** Ids of the originals a merged point stands for. */
  mergedFrom: string[];
  spans: string[];
}

/**
 * The key points of one source (e.g. `extracted:offline`).
 *
 * @param ws The workspace.
 * @param source The key point source.
 * @returns The key points, in the table's order.
 * @example
 * ```ts
 * import { readKeyPointsOfSource } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const points = await readKeyPointsOfSource(ws, "extracted:offline");
 * ```
 */
export async function readKeyPointsOfSource(
  ws: WorkspaceLike,
  source: string,
): Promise<StoredKeyPoint[]> {
  return await ws.query<StoredKeyPoint>(
    `SELECT topic_id, keypoint_id, level, text, doc_id, span_status, merged_from, spans FROM keypoints
     WHERE source = $1`,
    [source],
  );
}

/**
 * Unusable answers of the extract and merge steps, counted per topic and step.
 *
 * @param ws The workspace.
 * @returns One row per topic and step with problems, in no particular order.
 * @example
 * ```ts
 * import { countKeyPointProblems } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const problems = await countKeyPointProblems(ws); // e.g. [{ topicId: "t1", step: "extract", n: 2 }]
 * ```
 */
export async function countKeyPointProblems(
  ws: WorkspaceLike,
): Promise<{ topicId: string; step: "extract" | "merge"; n: number }[]> {
  return await ws.query<{ topicId: string; step: "extract" | "merge"; n: number }>(
    "SELECT topic_id, step, count(*)::INT AS n FROM keypoint_problems WHERE step IN ('extract', 'merge') GROUP BY ALL",
  );
}

/**
 * Deletes the key points of one source (every level).
 *
 * @param ws The workspace.
 * @param source The key point source (e.g. an imported file's name).
 * @example
 * ```ts
 * import { clearKeyPointSource } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearKeyPointSource(ws, "file:kp.jsonl");
 * ```
 */
export async function clearKeyPointSource(ws: WorkspaceLike, source: string): Promise<void> {
  await ws.exec("DELETE FROM keypoints WHERE source = $1", [source]);
}

/**
 * Deletes what one key point step wrote: the key points of its level (every
 * source) and the problems recorded by the step.
 *
 * @param ws The workspace.
 * @param step `extract` (level `original`) or `merge` (level `merged`).
 * @example
 * ```ts
 * import { clearKeyPointStep } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearKeyPointStep(ws, "merge");
 * ```
 */
export async function clearKeyPointStep(
  ws: WorkspaceLike,
  step: "extract" | "merge",
): Promise<void> {
  await ws.exec("DELETE FROM keypoints WHERE level = $1", [
    step === "extract" ? "original" : "merged",
  ]);
  await ws.exec("DELETE FROM keypoint_problems WHERE step = $1", [step]);
}

/**
 * Deletes a run's key point judgments: its labels and checked statements (every
 * judge) and the problems of its entailment and support steps.
 *
 * @param ws The workspace.
 * @param run The answer run.
 * @example
 * ```ts
 * import { clearKeyPointJudgments } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearKeyPointJudgments(ws, "rag-bm25");
 * ```
 */
export async function clearKeyPointJudgments(ws: WorkspaceLike, run: string): Promise<void> {
  await ws.exec("DELETE FROM keypoint_labels WHERE run = $1", [run]);
  await ws.exec("DELETE FROM keypoint_statements WHERE run = $1", [run]);
  await ws.exec(
    "DELETE FROM keypoint_problems WHERE item = $1 AND step IN ('entail', 'support')",
    [run],
  );
}

/** One stored key point label as {@linkcode readKeyPointLabels} returns it. */
export interface StoredKeyPointLabel {
  qid: string;
  runId: string;
  keypointId: string;
  /** Null where the judge's answer was unusable. */
  label: string | null;
}

/**
 * The key point labels of one judge and key point source, every run, in table order.
 *
 * @param ws The workspace.
 * @param judge The entailment judge.
 * @param source The key point source.
 * @returns The labels.
 * @example
 * ```ts
 * import { readKeyPointLabels } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readKeyPointLabels(ws, "llm:judge-model", "merged");
 * ```
 */
export async function readKeyPointLabels(
  ws: WorkspaceLike,
  judge: string,
  source: string,
): Promise<StoredKeyPointLabel[]> {
  return await ws.query<StoredKeyPointLabel>(
    `SELECT topic_id AS qid, run AS "runId", keypoint_id AS "keypointId", label FROM keypoint_labels
     WHERE judge = $1 AND source = $2`,
    [judge, source],
  );
}

/**
 * Whether each checked statement of one judge is supported, every run, in run,
 * topic and statement order.
 *
 * @param ws The workspace.
 * @param judge The support judge.
 * @returns The verdicts.
 * @example
 * ```ts
 * import { readKeyPointStatements } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readKeyPointStatements(ws, "llm:judge-model");
 * ```
 */
export async function readKeyPointStatements(
  ws: WorkspaceLike,
  judge: string,
): Promise<{ qid: string; runId: string; supported: boolean }[]> {
  return await ws.query<{ qid: string; runId: string; supported: boolean }>(
    `SELECT topic_id AS qid, run AS "runId", supported FROM keypoint_statements WHERE judge = $1
     ORDER BY run, topic_id, ordinal`,
    [judge],
  );
}

/**
 * Writes problems of the key point steps (one per failed or unparsed item) to `keypoint_problems`, replacing rows with the same key.
 *
 * @param ws The workspace.
 * @param rows The records.
 * @example
 * ```ts
 * import { writeKeyPointProblems } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeKeyPointProblems(ws, []);
 * ```
 */
export async function writeKeyPointProblems(
  ws: WorkspaceLike,
  rows: readonly object[],
): Promise<void> {
  if (rows.length) await ws.upsert("keypoint_problems", rows);
}

/**
 * Writes key point labels of reports to `keypoint_labels`, replacing rows with the same key.
 *
 * @param ws The workspace.
 * @param rows The records.
 * @example
 * ```ts
 * import { writeKeyPointLabels } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeKeyPointLabels(ws, []);
 * ```
 */
export async function writeKeyPointLabels(
  ws: WorkspaceLike,
  rows: readonly object[],
): Promise<void> {
  if (rows.length) await ws.upsert("keypoint_labels", rows);
}

/**
 * Writes statement checks of key point labels to `keypoint_statements`, replacing rows with the same key.
 *
 * @param ws The workspace.
 * @param rows The records.
 * @example
 * ```ts
 * import { writeKeyPointStatements } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await writeKeyPointStatements(ws, []);
 * ```
 */
export async function writeKeyPointStatements(
  ws: WorkspaceLike,
  rows: readonly object[],
): Promise<void> {
  if (rows.length) await ws.upsert("keypoint_statements", rows);
}
