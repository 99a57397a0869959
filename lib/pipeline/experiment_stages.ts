/**
 * The stage instances of an experiment for the pipeline runner: the chain
 * one method declares from the config's own fields (CRUX: dataset -> construct
 * -> select -> retrieve[run] -> rerank[run] -> generate[condition] ->
 * judge[generation] -> measure), then the stages of each method whose section
 * the config has, then the analyze stage over every judge and measure stage.
 *
 * @module
 */
import type { ProgressFn } from "@lib/llm/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import type { StageSpec } from "./run_stages.ts";
import type { CruxExperimentConfig } from "./experiment_config.ts";
import type { ExperimentMethod, MethodStageContext } from "./method_stage.ts";
import { methodBackends } from "./method_backends.ts";
import { experimentHeadlines } from "./experiment_headlines.ts";

/** Stage kinds of an experiment, in order. */
export const CRUX_STAGES = [
  "dataset",
  "construct",
  "select",
  "retrieve",
  "rerank",
  "generate",
  "judge",
  "measure",
  "statistics",
  "analyze",
] as const;

/** Options of {@linkcode experimentStages}. */
export interface ExperimentStagesOptions {
  env?: Record<string, string | undefined>;
  onNote?: (stage: string, message: string) => void;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /**
   * The `analyze` stage: tables and figures from the workspace, supplied by the
   * layer above (experiment), with the parameters that decide its output. Without
   * it the experiment has no `analyze` stage.
   */
  analyze?: AnalyzeStep;
  /**
   * The `statistics` stage: the statistics the tables show, computed from the
   * stored measures (after every judge and measure stage, before `analyze`).
   * Without it the experiment has no `statistics` stage.
   */
  statistics?: AnalyzeStep;
  /**
   * The evaluation methods (the method registry, in stage order: the comparison
   * last). Exactly one declares the experiment's chain; each whose section the
   * config has adds its stages.
   */
  methods: readonly ExperimentMethod[];
}

/** The analyze stage's work, supplied by the experiment layer. */
export interface AnalyzeStep {
  /** Parameters of the analyses (part of the stage's fingerprint). */
  params: unknown;
  /** Writes the tables and figures; resolves to a one-line summary. */
  run: (ws: Workspace) => Promise<string>;
}

/**
 * Declares the stage instances of an experiment config.
 *
 * @param config A checked experiment config (see `loadExperimentConfigWith`).
 * @param opts The methods (the registry), environment, callbacks, signal, analyze step.
 * @returns Stage instances in dependency order, for `runStages` with `CRUX_STAGES`.
 * @throws {TypeError} When not exactly one method declares the experiment's chain.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CRUX_STAGES, experimentStages } from "@lib/pipeline/mod.ts";
 * // A one-stage chain standing in for the method registry's.
 * const chain = {
 *   key: "m", headlines: [], roles: [], backends: () => ({}),
 *   chain: () => Promise.resolve({
 *     specs: [{ id: "dataset", stage: "dataset", version: 1, params: {}, deps: [], run: () => Promise.resolve("ok") }],
 *     answers: { answerRuns: [], answerStages: [], dataStages: ["dataset"], judgeStages: [] },
 *   }),
 * };
 * const specs = await experimentStages({ name: "x", workspace: "outputs/x" }, { methods: [chain] });
 * assert.deepEqual(specs.map((s) => s.id), ["dataset"]);
 * assert.equal(CRUX_STAGES[0], "dataset");
 * ```
 */
export async function experimentStages(
  config: CruxExperimentConfig,
  opts: ExperimentStagesOptions,
): Promise<StageSpec[]> {
  const methods = opts.methods;
  const chained = methods.filter((m) => m.chain);
  if (chained.length !== 1) {
    throw new TypeError(
      `Cannot declare the stages of experiment "${config.name}": ${
        chained.length
          ? `${chained.length} methods declare the experiment's chain (${
            chained.map((m) => m.key).join(", ")
          })`
          : "no method declares the experiment's chain"
      }; pass the method registry as \`methods\``,
    );
  }
  const owner = chained[0];
  const backend = config.backend === "openai" ? "openai" : "offline";
  const models = { backend, llm: config.llm, env: opts.env } as const;
  const chain = await owner.chain!(config, {
    env: opts.env,
    onNote: opts.onNote,
    onProgress: opts.onProgress,
    signal: opts.signal,
    backends: (only) => methodBackends(owner, {}, models, only),
  });
  const specs = [...chain.specs];
  const ctx: MethodStageContext = {
    ...models,
    onNote: opts.onNote,
    onProgress: opts.onProgress,
    signal: opts.signal,
    ...chain.answers,
    outDir: config.workspace,
    configFile: config.file ?? "(config)",
    headlines: experimentHeadlines(methods, config.methods),
  };
  const methodStages: string[] = [];
  for (const method of methods) {
    const section = config.methods?.[method.key];
    if (section === undefined || !method.section) continue;
    const added = await method.section.stages(
      section,
      { ...ctx, methodStages: [...methodStages] },
      methodBackends(method, section, ctx),
    );
    specs.push(...added);
    methodStages.push(...added.filter((s) => s.stage === "measure").map((s) => s.id));
  }
  if (opts.statistics) {
    const statistics = opts.statistics;
    specs.push({
      id: "statistics",
      stage: "statistics",
      version: 2,
      params: statistics.params,
      deps: specs.filter((s) => ["judge", "measure"].includes(s.stage)).map((s) => s.id),
      run: (ws) => statistics.run(ws),
    });
  }
  if (opts.analyze) {
    const analyze = opts.analyze;
    specs.push({
      id: "analyze",
      stage: "analyze",
      version: 1,
      params: analyze.params,
      deps: specs.filter((s) => ["judge", "measure", "statistics"].includes(s.stage))
        .map((s) => s.id),
      run: (ws) => analyze.run(ws),
    });
  }
  return specs;
}
