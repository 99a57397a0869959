/**
 * The judge whose passage ratings an evaluation or a selection uses: one rule
 * for every step.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/**
 * Resolves the judge of the passage ratings (reports excluded): the one asked
 * for; else the only judge that rated passages; else the judge whose ratings
 * made the selection's qrels `crux_pr` (as `qrels_info` records it; not with
 * `selection: false`, for the selection itself); else `prefer` (the experiment's
 * own judge) when it rated passages; else an error listing them. A judge that
 * rated a few passages besides (a report judge rating unjudged context passages)
 * thus never replaces the judge of the selection.
 *
 * @param ws The workspace.
 * @param what What needs the judge, for the error (e.g. "select required passages").
 * @param judge The judge asked for, if any.
 * @param opts `prefer`: the judge to take among several (the experiment's judge);
 *   `selection: false` ignores the selection's judge (default true).
 * @returns The judge's name.
 * @throws {RangeError} When no passage is rated, the judge asked for rated none, or
 *   several judges rated passages and none was asked for (listing them).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { passageJudge } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * assert.equal(await passageJudge(ws, "measure runs"), "human"); // on the bundled sample
 * ```
 */
export async function passageJudge(
  ws: WorkspaceLike,
  what: string,
  judge?: string,
  opts: { prefer?: string; selection?: boolean } = {},
): Promise<string> {
  const judges = (await ws.query<{ judge: string }>(
    `SELECT DISTINCT judge FROM rated_items WHERE item_kind = 'passage' ORDER BY judge`,
  )).map((r) => r.judge);
  const selected = opts.selection === false || judges.length < 2 ? undefined : (await ws.query<
    { judge: string }
  >(
    "SELECT judge FROM qrels_info WHERE name = 'crux_pr' AND judge IS NOT NULL",
  ))[0]?.judge;
  const chosen = judge ??
    (judges.length === 1
      ? judges[0]
      : selected !== undefined && judges.includes(selected)
      ? selected
      : opts.prefer !== undefined && judges.includes(opts.prefer)
      ? opts.prefer
      : undefined);
  if (chosen !== undefined && judges.includes(chosen)) return chosen;
  throw new RangeError(
    judges.length === 0
      ? `Cannot ${what}: the workspace has no passage ratings; construct or import them first`
      : `Cannot ${what} ${
        chosen ? `with judge "${chosen}": it rated no passage` : "without a judge"
      }; choose one of ${judges.map((j) => `"${j}"`).join(", ")}`,
  );
}
