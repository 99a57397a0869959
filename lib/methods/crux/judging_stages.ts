/**
 * The CRUX chain's report judging stages: `judge:<run>` for each judged run,
 * rating its reports against their topics' answerable sub-questions.
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
import { judgeReports } from "@lib/judge/mod.ts";
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
  const { common, note, settings, tau } = env;
  return judged.map((run) => ({
    id: `judge:${run}`,
    stage: "judge",
    // 2: stored names carry the judge's own tau (`Cov(tau=4)`); a workspace judged
    // by version 1 at another tau than 3 named those values plain `Cov`.
    version: 2,
    // The analyses' thresholds and density exponent: the judge stores Cov(y) and
    // Den(y) at each, so the tables read them.
    params: {
      tau,
      models: env.models,
      taus: settings.taus,
      ...(env.w ? { w: env.w } : {}),
    },
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
      await deleteMeasures(ws, { ...ANSWER_ROWS, run });
    },
    run: (ws) =>
      env.unlessWaiting(ws, async () => {
        const judge = roleJudge(ws, await env.client(ws, "judge"));
        const r = await judgeReports(ws, {
          judge,
          run,
          tau,
          taus: settings.taus,
          ...(env.w ? { w: env.w } : {}),
          ...common,
          onNote: note("judge"),
        });
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
