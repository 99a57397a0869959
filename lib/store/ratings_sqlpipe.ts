/**
 * Clears and reads of ratings and rated items that the pipeline's stages need.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** Judges named `<judge>#s<i>`: samples of the judge-variance stage. */
const SAMPLE_JUDGE = "regexp_matches(judge, '#s[0-9]+$')";

/**
 * Deletes the ratings and rated items of sample judges (`<judge>#s<i>`, made by
 * the judge-variance stage); every other judge's stay.
 *
 * @param ws The workspace.
 * @example
 * ```ts
 * import { clearSampleJudgeRatings } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearSampleJudgeRatings(ws);
 * ```
 */
export async function clearSampleJudgeRatings(ws: WorkspaceLike): Promise<void> {
  await ws.exec(`DELETE FROM ratings WHERE ${SAMPLE_JUDGE}`);
  await ws.exec(`DELETE FROM rated_items WHERE ${SAMPLE_JUDGE}`);
}

/**
 * Deletes one judge's ratings of a generated run's reports, found by what the
 * rated items are (kind `report` of that run), or, for `oracle-result`, of the
 * reference summaries (kind `reference`). The rated items stay.
 *
 * @param ws The workspace.
 * @param judge The judge.
 * @param run The generated run (`oracle-result`: the reference summaries).
 * @example
 * ```ts
 * import { clearReportRatings } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearReportRatings(ws, "llm:judge-model", "rag-bm25");
 * ```
 */
export async function clearReportRatings(
  ws: WorkspaceLike,
  judge: string,
  run: string,
): Promise<void> {
  const reference = run === "oracle-result";
  await ws.exec(
    `DELETE FROM ratings WHERE judge = $1 AND item_id IN (SELECT item_id FROM rated_items
       WHERE judge = $1 AND ${
      reference ? "item_kind = 'reference'" : "item_kind = 'report' AND run = $2"
    })`,
    reference ? [judge] : [judge, run],
  );
}

/**
 * The judges that rated passages (reports and references excluded), in name order.
 *
 * @param ws The workspace.
 * @returns Judge names.
 * @example
 * ```ts
 * import { readPassageJudges } from "@lib/store/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await readPassageJudges(ws); // [] in a new workspace
 * ```
 */
export async function readPassageJudges(ws: WorkspaceLike): Promise<string[]> {
  return (await ws.query<{ judge: string }>(
    `SELECT DISTINCT judge FROM rated_items WHERE item_kind = 'passage' ORDER BY judge`,
  )).map((r) => r.judge);
}
