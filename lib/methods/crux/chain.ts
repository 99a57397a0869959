/**
 * CRUX's chain, the stages every experiment runs, declared from the config's
 * own fields: dataset -> construct -> select -> retrieve[run] -> rerank[run] ->
 * generate[condition] -> judge[generation] -> measure:reports[generation] ->
 * measure:human -> measure:human-agreement (when the config names a human
 * study) -> measure[run] -> measure:contexts -> measure:samples.
 * Each instance states its parameters, what it reads and how to clear what it
 * wrote, so changing one pipeline's parameter re-runs that pipeline's
 * retrieval, generation, judging and measures, and nothing else.
 *
 * @module
 */
import type { ChainContext, ChainStages, CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import { type CruxBackends, cruxChainEnv } from "./chain_env.ts";
import { constructionStages } from "./construction_stages.ts";
import { retrievalStages } from "./retrieval_stages.ts";
import { generationStages } from "./generation_stages.ts";
import { judgingStages } from "./judging_stages.ts";
import { measureStages } from "./measure_stages.ts";
import { humanMeasureStage } from "./human_measure_stage.ts";
import { humanAgreementStage } from "./human_agreement_stage.ts";
import { reportMeasureId, reportMeasureStages } from "./report_measure_stages.ts";
import { sampleMeasureStage } from "./sample_measure_stage.ts";

/**
 * The stage instances of CRUX's chain of an experiment config.
 *
 * @param config A checked experiment config.
 * @param ctx Environment, callbacks and the opener of CRUX's backends.
 * @returns The stages in dependency order and the answers the methods' stages build on.
 * @throws {Error} When a configured prompt file or run file is unreadable.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxChain } from "./chain.ts";
 * const { specs, answers } = await cruxChain({ name: "x", workspace: "outputs/x" }, {
 *   backends: () => () => Promise.resolve({}),
 * });
 * assert.equal(specs[0].id, "dataset");
 * assert.deepEqual(answers.answerRuns, ["rag-bm25", "direct", "oracle-context", "oracle-result"]);
 * ```
 */
export async function cruxChain(
  config: CruxExperimentConfig,
  ctx: ChainContext<CruxBackends>,
): Promise<ChainStages> {
  const env = cruxChainEnv(config, ctx);
  const runs = await retrievalStages(env);
  const generation = generationStages(env, runs);
  const judged = generation.judged;
  return {
    specs: [
      ...constructionStages(env),
      ...runs.specs,
      ...generation.specs,
      ...judgingStages(env, judged),
      ...reportMeasureStages(env, judged),
      await humanMeasureStage(env, judged),
      ...await humanAgreementStage(env, judged),
      ...measureStages(env, runs, generation.generations),
      ...sampleMeasureStage(env, runs),
    ],
    answers: {
      answerRuns: judged,
      answerStages: judged.map((run) => `generate:${run}`),
      dataStages: ["dataset", "construct", "select"],
      // The comparison reads CRUX's ratings and the measures of them.
      judgeStages: [...judged.map((run) => `judge:${run}`), ...judged.map(reportMeasureId)],
    },
  };
}
