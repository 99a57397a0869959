/**
 * Clears and reads of the key point tables that the pipeline's key point
 * stages need.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

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
