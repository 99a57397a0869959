/**
 * The CRUX chain's measure stages of runs and contexts: `measure:<run>` (the
 * config's measures of each retrieval or reranked run) and `measure:contexts`
 * (the contexts the analyses compare, at every threshold they show).
 *
 * @module
 */
import { clearContextMeasures, incompleteRatingTopics } from "@lib/store/mod.ts";
import { ORACLE_CONTEXT, type StageSpec } from "@lib/pipeline/mod.ts";
import { clearMeasureValues, clearRunMeans } from "./measure_values.ts";
import { measureRuns } from "./measure_runs.ts";
import { measureContexts } from "./measure_contexts.ts";
import type { CruxChainEnv } from "./chain_env.ts";
import type { RetrievalStages } from "./retrieval_stages.ts";
import type { ChainGeneration } from "./generation_stages.ts";

/**
 * The run and context measure stages of the chain.
 *
 * @param env The chain's shared part (see `cruxChainEnv`).
 * @param runs The run stages (their names and sources).
 * @param generations The generation runs (their contexts are measured).
 * @returns One `measure:<run>` per run, then `measure:contexts` when a generation has contexts.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxChainEnv } from "./chain_env.ts";
 * import { measureStages } from "./measure_stages.ts";
 * const env = cruxChainEnv({ name: "x", workspace: "outputs/x" }, {
 *   backends: () => () => Promise.resolve({}),
 * });
 * const runs = { specs: [], runNames: ["bm25"], source: (n: string) => `retrieve:${n}` };
 * const specs = measureStages(env, runs, [{ run: "direct", condition: "direct" }]);
 * assert.deepEqual(specs.map((s) => s.id), ["measure:bm25"]);
 * ```
 */
export function measureStages(
  env: CruxChainEnv,
  runs: RetrievalStages,
  generations: readonly ChainGeneration[],
): StageSpec[] {
  const { config, note, settings, tau } = env;
  const { runNames, source } = runs;
  const specs: StageSpec[] = [];
  for (const name of runNames) {
    specs.push({
      id: `measure:${name}`,
      stage: "measure",
      // 2: stored rows state their topic set; 3: each dataset's mean beside the run mean.
      version: 3,
      params: { measures: config.measures ?? null, tau },
      deps: ["select", source(name)],
      // Rows of measures the config no longer asks for must not outlive a re-run.
      clear: (ws) => clearMeasureValues(ws, name),
      run: (ws) =>
        env.unlessWaiting(ws, async () => {
          const judge = await env.passageJudge(ws);
          const rows = await measureRuns(ws, [name], {
            measures: config.measures,
            tau,
            judge,
            missingTokens: "skip",
            onNote: note("measure"),
          });
          // Topics left out of the selection for failed ratings: the run's means would
          // be over the other topics, so none is kept until a re-run rates them.
          const unselected = await incompleteRatingTopics(ws, judge);
          if (unselected.length) {
            await clearRunMeans(ws, name, judge);
            note("measure")(
              `Run "${name}": no means stored; ${unselected.length} topics have failed or unparsed passage ratings (re-run to retry them)`,
            );
            return `${rows.length} aggregate values computed, not stored as means`;
          }
          return `${rows.length} aggregate values`;
        }),
    });
  }
  // The contexts the analyses compare, measured by the measure step at every
  // threshold they show: each generation's contexts and the retrieval runs' rankings.
  const contextSets = generations.filter((g) => g.condition !== "direct").map((g) => ({
    generation: g.run,
    ...(g.context ? { run: g.context } : {}),
  }));
  if (contextSets.length) {
    specs.push({
      id: "measure:contexts",
      stage: "measure",
      // 2: stored rows state their topic set; 3: each dataset's mean beside the run mean.
      version: 3,
      params: {
        taus: settings.taus,
        w: settings.w,
        cutoffs: settings.cutoffs,
        evaluation: settings.evaluation,
      },
      deps: [
        "select",
        ...contextSets.map((c) => `generate:${c.generation}`),
        ...[...new Set([...runNames, ...settings.evaluation.runs])].map(source),
      ],
      clear: async (ws) => {
        const names = [
          ...contextSets.map((c) => c.generation),
          ...runNames,
          ...settings.evaluation.runs,
          ORACLE_CONTEXT,
        ];
        for (const name of new Set(names)) await clearContextMeasures(ws, name);
      },
      run: (ws) =>
        env.unlessWaiting(ws, async () => {
          const judge = await env.passageJudge(ws);
          const n = await measureContexts(ws, contextSets, {
            judge,
            means: (await incompleteRatingTopics(ws, judge)).length === 0,
            taus: settings.taus,
            w: settings.w,
            cutoffs: settings.cutoffs,
            evaluation: settings.evaluation,
            onNote: note("measure"),
          });
          return `${n} values of the analyses' contexts`;
        }),
    });
  }
  return specs;
}
