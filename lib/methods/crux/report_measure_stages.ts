/**
 * The CRUX chain's report measure stages: `measure:reports:<run>` for each
 * judged run, computing Cov and Den of its reports and of their contexts from
 * the ratings `judge:<run>` stored, at the construction's threshold and at
 * every threshold the analyses show, with the reports' token counts beside
 * them (`Tokens` per topic and over the topic set of each Cov(y) mean), and
 * each report's budget (tokens of P*), tokens / budget and context size.
 *
 * @module
 */
import { ANSWER_ROWS, deleteMeasures } from "@lib/store/mod.ts";
import { measureReportBudgets, measureReports } from "@lib/judge/mod.ts";
import type { StageSpec } from "@lib/pipeline/mod.ts";
import type { CruxChainEnv } from "./chain_env.ts";

/** The id of the measure stage of a judged run's reports. */
export const reportMeasureId = (run: string): string => `measure:reports:${run}`;

/**
 * The report measure stages of the chain.
 *
 * @param env The chain's shared part (see `cruxChainEnv`).
 * @param judged The runs whose reports are judged (each rated by `judge:<run>`).
 * @returns One `measure:reports:<run>` stage per run.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxChainEnv } from "./chain_env.ts";
 * import { reportMeasureStages } from "./report_measure_stages.ts";
 * const env = cruxChainEnv({ name: "x", workspace: "outputs/x" }, {
 *   backends: () => () => Promise.resolve({}),
 * });
 * const [m] = reportMeasureStages(env, ["direct"]);
 * assert.deepEqual([m.id, m.stage, m.deps], ["measure:reports:direct", "measure", ["judge:direct"]]);
 * ```
 */
export function reportMeasureStages(env: CruxChainEnv, judged: readonly string[]): StageSpec[] {
  const { note, settings, tau } = env;
  return judged.map((run) => ({
    id: reportMeasureId(run),
    stage: "measure",
    // 2: stores the reports' token counts (`Tokens`) beside Cov and Den; 3: each
    // dataset's mean beside the run mean; 4: each report's budget, tokens / budget
    // and context size.
    version: 4,
    // The analyses' thresholds and density exponent: Cov(y) and Den(y) are stored at
    // each, so the tables read them.
    params: { tau, taus: settings.taus, ...(env.w ? { w: env.w } : {}) },
    deps: [`judge:${run}`],
    clear: async (ws) => {
      await deleteMeasures(ws, { ...ANSWER_ROWS, run });
    },
    run: (ws) =>
      env.unlessWaiting(ws, async () => {
        const judge = await env.judgeName(ws);
        const r = await measureReports(ws, {
          judge,
          run,
          tau,
          taus: settings.taus,
          ...(env.w ? { w: env.w } : {}),
          onNote: note("measure"),
        });
        const budgets = await measureReportBudgets(ws, { run, judge });
        return `${r.stored} values of ${judge}'s ratings, ${budgets} of report budgets`;
      }),
  }));
}
