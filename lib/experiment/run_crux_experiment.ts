/**
 * One experiment from its config, through the pipeline's stage runner: each
 * stage instance runs only when its fingerprint (parameters and upstream
 * fingerprints) changed.
 *
 * @module
 */
import type { ProgressFn } from "@lib/llm/mod.ts";
import {
  CRUX_STAGES,
  type CruxExperimentConfig,
  experimentStages,
  runStages,
  type RunStagesResult,
  type StageEvent,
} from "@lib/pipeline/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { statisticsStep, type WorkspaceAnalyses } from "@lib/analysis/mod.ts";
import { configuredMethodAnalyses } from "./configured_method_analyses.ts";
import { METHOD_REGISTRY, type MethodDeclaration } from "@lib/methods/mod.ts";
import { analyzeStep } from "./analyze_step.ts";

/** Stages `until` and `from` accept, in pipeline order. */
export const RUN_STAGES = CRUX_STAGES;

/** A stage of {@linkcode RUN_STAGES}. */
export type RunStage = typeof RUN_STAGES[number];

/** Options of {@linkcode runCruxExperiment}. */
export interface RunCruxExperimentOptions {
  /** Last stage to run. Default `analyze`. */
  until?: RunStage;
  /** Re-run this stage and every later one even when up to date. */
  from?: RunStage;
  /**
   * Stage messages: why a stage ran or that it was up to date, notes and
   * summaries. Events of a stage instance carry its `id`; the one announcing
   * that it starts has `starting`.
   */
  onEvent?: (
    event: { stage: string; message: string; id?: string; starting?: boolean },
  ) => void;
  /** Progress of model calls. */
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /** Environment for model settings. Default `Deno.env`. */
  env?: Record<string, string | undefined>;
  /**
   * Count of the requests exported to a batch file so far (see `runStages`):
   * stages that read what an exporting stage would produce are not started.
   */
  exported?: () => number;
  /**
   * Stage instances run at once (see `runStages`): independent ones (retrieval and
   * generation runs, judging of different runs, ...) overlap, each on a connection of
   * its own; model stages of one role keep together to the role's concurrency.
   * Default 1: one after another.
   */
  parallel?: number;
  /** The evaluation methods (a test's own registry). Default {@linkcode METHOD_REGISTRY}. */
  methods?: readonly MethodDeclaration[];
}

/** What {@linkcode runCruxExperiment} did. */
export interface RunCruxExperimentResult {
  /** Stage instances that ran, were up to date, or were not started. */
  stages: RunStagesResult;
  /** The analyses, when the `analyze` stage ran. */
  analyses?: WorkspaceAnalyses;
}

/**
 * Runs an experiment config: dataset -> construct -> select -> retrieve ->
 * rerank -> generate -> judge -> measure -> analyze (see `experimentStages` and CRUX's chain), with
 * the stages of every registry method whose section the config has. Each
 * stage instance is skipped when its recorded fingerprint matches, so a re-run
 * of an unchanged config makes no model call and writes nothing, and changing
 * one parameter re-runs exactly the stages that depend on it; every event says
 * which ran and why.
 *
 * @param config The checked config (see `loadExperimentConfig`).
 * @param opts `until`, `from`, callbacks, signal, environment.
 * @returns The stage outcome and, when the analyze stage ran, the analyses.
 * @throws {RangeError} When a stage has nothing to work on (e.g. no topics and no dataset).
 * @example
 * ```ts ignore
 * // Not run as a test: the whole pipeline on the sample takes minutes.
 * import { loadExperimentConfig, runCruxExperiment } from "@lib/experiment/mod.ts";
 * const cfg = await loadExperimentConfig("notebooks/configs/sample-offline.json");
 * const workspace = await Deno.makeTempDir(); // the config's own: outputs/sample
 * const { stages } = await runCruxExperiment({ ...cfg, workspace });
 * stages.ran.length; // every stage instance, the first time
 * ```
 */
export async function runCruxExperiment(
  config: CruxExperimentConfig,
  opts: RunCruxExperimentOptions = {},
): Promise<RunCruxExperimentResult> {
  let analyses: WorkspaceAnalyses | undefined;
  const say = (stage: string, message: string) => opts.onEvent?.({ stage, message });
  // Opened first: declaring the stages reads the memo of input files through it.
  const ws = await openWorkspace(config.workspace);
  try {
    const specs = await experimentStages(config, {
      env: opts.env,
      onNote: say,
      onProgress: opts.onProgress,
      signal: opts.signal,
      methods: opts.methods ?? METHOD_REGISTRY,
      statistics: statisticsStep(config, {
        env: opts.env,
        methodAnalyses: configuredMethodAnalyses(config, { methods: opts.methods }),
      }),
      analyze: analyzeStep(config, {
        methods: opts.methods,
        env: opts.env,
        onNote: (m) => say("analyze", m),
        onAnalyses: (a) => (analyses = a),
      }),
    });
    const stages = await runStages(ws, specs, {
      order: CRUX_STAGES,
      until: opts.until,
      from: opts.from,
      exported: opts.exported,
      parallel: opts.parallel,
      onEvent: (e: StageEvent) => {
        // Past `until` goes unsaid; a stage waiting for exported answers is named.
        if (e.state !== "stopped" || opts.exported && e.message.includes("waits for")) {
          opts.onEvent?.({
            stage: e.stage,
            message: `${e.id}: ${e.state === "fresh" ? "up to date" : e.message}`,
            id: e.id,
            ...(e.starting ? { starting: true } : {}),
          });
        }
      },
    });
    // Everything written goes into workspace.duckdb now: a run that ends well leaves no
    // write-ahead log, and a checkpoint that fails (a full disk) fails the run, said.
    await ws.exec("CHECKPOINT");
    return { stages, analyses };
  } finally {
    ws.close();
  }
}
