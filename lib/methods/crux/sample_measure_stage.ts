/**
 * The CRUX chain's `measure:samples` stage: stores the measures of the metric
 * correlations' random contexts (see `measureSampledContexts`), so the table
 * only reads them.
 *
 * @module
 */
import { sampledContexts } from "@lib/analysis/mod.ts";
import { deleteMeasures } from "@lib/store/mod.ts";
import type { StageSpec } from "@lib/pipeline/mod.ts";
import type { CruxChainEnv } from "./chain_env.ts";
import type { RetrievalStages } from "./retrieval_stages.ts";
import { measureSampledContexts, SAMPLE_SOURCE_PREFIX } from "./measure_sampled_contexts.ts";

/**
 * The sampled-context measure stage of the chain: the runs of
 * `analysis.correlation.runs` (default: every retrieval run), drawn and
 * measured at the analyses' threshold.
 *
 * @param env The chain's shared part (see `cruxChainEnv`).
 * @param runs The run stages (their names and sources).
 * @returns `measure:samples`, or none when no run is drawn from.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxChainEnv } from "./chain_env.ts";
 * import { sampleMeasureStage } from "./sample_measure_stage.ts";
 * const env = cruxChainEnv({ name: "x", workspace: "outputs/x" }, {
 *   backends: () => () => Promise.resolve({}),
 * });
 * const runs = { specs: [], runNames: ["bm25"], source: (n: string) => `retrieve:${n}` };
 * const [s] = sampleMeasureStage(env, runs);
 * assert.deepEqual([s.id, s.deps], ["measure:samples", ["select", "retrieve:bm25"]]);
 * ```
 */
export function sampleMeasureStage(env: CruxChainEnv, runs: RetrievalStages): StageSpec[] {
  const { config, note, settings } = env;
  const correlation = config.analysis?.correlation;
  const names = correlation?.runs ?? (config.retrieve ?? [{ name: "bm25" }]).map((r) => r.name);
  if (names.length === 0) return [];
  const sample = sampledContexts.settings({ ...correlation, tau: settings.tau });
  return [{
    id: "measure:samples",
    stage: "measure",
    version: 1,
    params: { runs: names, ...sample },
    deps: ["select", ...names.filter((n) => runs.runNames.includes(n)).map(runs.source)],
    clear: async (ws) => {
      await deleteMeasures(ws, { sourcePrefix: SAMPLE_SOURCE_PREFIX });
    },
    run: (ws) =>
      env.unlessWaiting(ws, async () => {
        const judge = await env.passageJudge(ws);
        const n = await measureSampledContexts(ws, {
          runs: names,
          judge,
          settings: sample,
          onNote: note("measure"),
        });
        return `${n} values of the sampled contexts`;
      }),
  }];
}
