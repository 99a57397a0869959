/**
 * Clears of the sub-question tables that the pipeline's sub-question stages need.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

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
 * Deletes the judged preference pairs read from one file.
 *
 * @param ws The workspace.
 * @param source The preference file, as the stage names it.
 * @example
 * ```ts
 * import { clearSubqPreferences } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearSubqPreferences(ws, "datasets/sample/preferences.jsonl");
 * ```
 */
export async function clearSubqPreferences(ws: WorkspaceLike, source: string): Promise<void> {
  await ws.exec(`DELETE FROM subq_preferences WHERE source = $1`, [source]);
}
