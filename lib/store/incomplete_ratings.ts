/**
 * Which topics' passage ratings by a judge are incomplete because calls failed
 * or answers could not be parsed: kept in `meta` under
 * `ratings.incomplete|<judge>` by the construction's rating step, so the
 * selection leaves those topics out instead of reading a missing rating as 0.
 * Imported ratings never set it.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";
import { readMetaJson, writeMetaJson } from "./meta_json.ts";

const KEY = "ratings.incomplete|";

/**
 * The topics whose ratings by `judge` have failed or unparsed pairs.
 *
 * @param ws The workspace.
 * @param judge The passage judge.
 * @returns Topic ids, sorted (empty when none).
 * @example
 * ```ts
 * import { incompleteRatingTopics } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await incompleteRatingTopics(ws, "llm:judge-model"); // e.g. ["d30001t"]
 * ```
 */
export async function incompleteRatingTopics(
  ws: WorkspaceLike,
  judge: string,
): Promise<string[]> {
  return await readMetaJson<string[]>(ws, KEY + judge) ?? [];
}

/**
 * Records the topics whose ratings by `judge` have failed or unparsed pairs; an
 * empty list removes the record.
 *
 * @param ws The workspace.
 * @param judge The passage judge.
 * @param topics Topic ids.
 * @example
 * ```ts
 * import { recordIncompleteRatingTopics } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await recordIncompleteRatingTopics(ws, "llm:judge-model", []); // all rated
 * ```
 */
export async function recordIncompleteRatingTopics(
  ws: WorkspaceLike,
  judge: string,
  topics: readonly string[],
): Promise<void> {
  await writeMetaJson(
    ws,
    KEY + judge,
    topics.length ? [...new Set(topics)].sort() : undefined,
  );
}
