/**
 * The CRUX chain's report judging stages: `judge:<run>` for each judged run,
 * rating its reports against their topics' answerable sub-questions. They
 * store ratings only; `measure:reports:<run>` scores them (see
 * `report_measure_stages.ts`).
 *
 * @module
 */
import {
  ANSWER_ROWS,
  clearReportRatings,
  deleteMeasures,
  incompleteRatingTopics,
} from "@lib/store/mod.ts";
import { roleJudge } from "@lib/construct/mod.ts";
import { rateReports } from "@lib/judge/mod.ts";
import { previousParams, type StageSpec } from "@lib/pipeline/mod.ts";
import type { CruxChainEnv } from "./chain_env.ts";

/**
 * The report judging stages of the chain.
 *
 * @param env The chain's shared part (see `cruxChainEnv`).
 * @param judged The runs whose reports are judged (each written by `generate:<run>`).
 * @returns One `judge:<run>` stage per run.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxChainEnv } from "./chain_env.ts";
 * import { judgingStages } from "./judging_stages.ts";
 * const env = cruxChainEnv({ name: "x", workspace: "outputs/x" }, {
 *   backends: () => () => Promise.resolve({}),
 * });
 * const [judge] = judgingStages(env, ["direct"]);
 * assert.deepEqual([judge.id, judge.deps], ["judge:direct", ["generate:direct"]]);
 * ```
 */
export function judgingStages(env: CruxChainEnv, judged: readonly string[]): StageSpec[] {
  const { common, note, tau } = env;
  return judged.map((run) => ({
    id: `judge:${run}`,
    stage: "judge",
    // 2: stored names carry the judge's own tau (`Cov(tau=4)`); a workspace judged
    // by version 1 at another tau than 3 named those values plain `Cov`.
    // 3: the stage stores ratings only; `measure:reports:<run>` computes Cov and Den
    // (at the analyses' thresholds and density exponent, now its parameters).
    version: 3,
    // The threshold of A: the sub-questions each report is rated on.
    params: { tau, models: env.models },
    deps: [`generate:${run}`],
    clear: async (ws) => {
      // The judge's ratings of this run's reports (the reference summary for
      // oracle-result), found by what the items are, not by their ids. A topic
      // waiting for failed or unparsed passage ratings keeps its reference ratings:
      // the construction rated them (-1 records its unparsed answers) and rates
      // them again with its passages.
      const own = await env.judgeName(ws);
      const waiting = run === "oracle-result" ? await incompleteRatingTopics(ws, own) : [];
      await clearReportRatings(ws, own, run, waiting);
      // A changed judge model replaces the earlier model's ratings, so no reader picks them.
      const earlier = await previousParams<{ models: { judge?: string | null } | string }>(
        ws,
        `judge:${run}`,
      );
      const earlierJudge = typeof earlier.models === "object" ? earlier.models.judge : undefined;
      if (typeof earlierJudge === "string") await clearReportRatings(ws, earlierJudge, run);
      // The values of the ratings cleared go with them (the measure stage writes them again).
      await deleteMeasures(ws, { ...ANSWER_ROWS, run });
    },
    run: (ws) =>
      env.unlessWaiting(ws, async () => {
        const judge = roleJudge(ws, await env.client(ws, "judge"));
        const r = await rateReports(ws, { judge, run, tau, ...common, onNote: note("judge") });
        return {
          summary: `${r.written} ratings by ${judge.name}` +
            (r.failed + r.unparsed ? `; ${r.failed} failed, ${r.unparsed} unparsed` : ""),
          items: r.asked,
          failed: r.failed,
          unparsed: r.unparsed,
        };
      }),
  }));
}
