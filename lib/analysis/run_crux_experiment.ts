/**
 * One experiment from its config: the construction chain, reranked runs and
 * every analysis.
 *
 * @module
 */
import { roleClient } from "@lib/construct/mod.ts";
import { type ExperimentEvent, type ExperimentResult, runExperiment } from "@lib/pipeline/mod.ts";
import type { LlmClient, ProgressFn } from "@lib/llm/mod.ts";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import type { CruxExperimentConfig } from "./experiment_config.ts";
import { rerankRun, type RerankSummary } from "./rerank_run.ts";
import { analyzeWorkspace, type WorkspaceAnalyses } from "./analyze_workspace.ts";
import { experimentBackends, experimentPipelines } from "./_experiment_pipelines.ts";

/** Stages `until` accepts, in pipeline order. */
export const RUN_STAGES = [
  "construct",
  "retrieve",
  "generate",
  "judge",
  "measure",
  "analyze",
] as const;

/** A stage of {@linkcode RUN_STAGES}. */
export type RunStage = typeof RUN_STAGES[number];

/** Options of {@linkcode runCruxExperiment}. */
export interface RunCruxExperimentOptions {
  /** Last stage to run. Default `analyze`. */
  until?: RunStage;
  /** Stage messages (chain stages plus `rerank` and `analyze`). */
  onEvent?: (
    event: { stage: ExperimentEvent["stage"] | "rerank" | "analyze"; message: string },
  ) => void;
  /** Progress of model calls. */
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /** Environment for model settings. Default `Deno.env`. */
  env?: Record<string, string | undefined>;
}

/** What {@linkcode runCruxExperiment} did. */
export interface RunCruxExperimentResult {
  chain?: ExperimentResult;
  reranked: RerankSummary[];
  analyses?: WorkspaceAnalyses;
}

/**
 * Runs an experiment config: the construction chain (import -> construct ->
 * retrieve -> generate -> judge -> measure, via `runExperiment`; BM25, dense,
 * fused and imported first-stage runs), the reranked runs of `rerank` (offline
 * MMR over TF-IDF vectors, or a cross-encoder endpoint of the reranker role
 * with cached calls; they need the first-stage runs, so the chain first runs
 * without generation when a reranked run is missing) and then every analysis, saved under the
 * workspace folder (`outputs/<experiment>/{tables,figures}`). Every stage
 * skips work already in the workspace and model calls are cached, so a
 * re-run is cheap and notebooks can call it to make sure what they show exists.
 *
 * @param config The checked config (see `loadExperimentConfig`).
 * @param opts `until` (default `analyze`), callbacks, signal, environment.
 * @returns The chain's summary, reranked runs and the analyses.
 * @throws {RangeError} When a stage has nothing to work on (see `runExperiment`).
 * @example
 * ```ts
 * import { loadExperimentConfig, runCruxExperiment } from "@lib/analysis/mod.ts";
 * const cfg = await loadExperimentConfig("notebooks/configs/sample-offline.json");
 * const workspace = await Deno.makeTempDir(); // the config's own: outputs/sample
 * const { analyses } = await runCruxExperiment({ ...cfg, workspace });
 * ```
 */
export async function runCruxExperiment(
  config: CruxExperimentConfig,
  opts: RunCruxExperimentOptions = {},
): Promise<RunCruxExperimentResult> {
  const stage = opts.until ?? "analyze";
  const chainOpts = {
    onEvent: opts.onEvent,
    onProgress: opts.onProgress,
    signal: opts.signal,
    env: opts.env,
  };
  const retrieve = config.retrieve ?? [{ name: "bm25" }];
  const rerank = config.rerank ?? [];
  const result: RunCruxExperimentResult = { reranked: [] };
  if (stage === "construct") {
    result.chain = await runExperiment(config, { ...chainOpts, until: "construct" });
    return result;
  }
  if (rerank.length || stage === "retrieve") {
    // Reranked runs need the first-stage runs: retrieve first, then rerank.
    const missing = await missingRuns(config.workspace, rerank.map((r) => r.name));
    if (missing || stage === "retrieve") {
      result.chain = await runExperiment({ ...config, retrieve }, {
        ...chainOpts,
        until: "retrieve",
      });
    }
    const ws = await openWorkspace(config.workspace);
    try {
      let client: LlmClient | undefined;
      for (const r of rerank) {
        if (r.method === "endpoint" && !client && !(await hasRun(ws, r.name))) {
          client = (await roleClient(ws, "reranker", { config: config.llm, env: opts.env })).client;
        }
        const s = await rerankRun(ws, r, { client, signal: opts.signal });
        result.reranked.push(s);
        opts.onEvent?.({
          stage: "rerank",
          message: `${r.name}: ${s.skipped ? "already there" : `${s.written} rows`}`,
        });
      }
    } finally {
      ws.close();
    }
    if (stage === "retrieve") return result;
  }
  result.chain = await runExperiment(
    { ...config, retrieve: [...retrieve, ...rerank.map((r) => ({ name: r.name }))] },
    { ...chainOpts, until: stage === "analyze" ? undefined : stage },
  );
  if (stage !== "analyze") return result;
  const ws = await openWorkspace(config.workspace);
  try {
    result.analyses = await analyzeWorkspace(ws, {
      ...config.analysis,
      correlation: { runs: retrieve.map((r) => r.name), ...config.analysis?.correlation },
      pipelines: experimentPipelines(config),
      backends: experimentBackends(config, opts.env),
      outDir: config.workspace,
      onNote: (m) => opts.onEvent?.({ stage: "analyze", message: m }),
    });
    for (const s of result.analyses.saved) {
      opts.onEvent?.({
        stage: "analyze",
        message: `${s.name}: ${[s.table?.md, s.figure?.svg].filter(Boolean).join(", ")}`,
      });
    }
  } finally {
    ws.close();
  }
  return result;
}

async function hasRun(ws: Workspace, name: string): Promise<boolean> {
  const rows = await ws.query<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM runs WHERE run = $1`,
    [name],
  );
  return rows[0].n > 0;
}

async function missingRuns(dir: string, names: readonly string[]): Promise<boolean> {
  if (names.length === 0) return false;
  const ws = await openWorkspace(dir);
  try {
    const have = new Set(
      (await ws.query<{ run: string }>(`SELECT DISTINCT run FROM runs`)).map((r) => r.run),
    );
    return names.some((n) => !have.has(n));
  } finally {
    ws.close();
  }
}
