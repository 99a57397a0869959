/**
 * How an evaluation method (nuggets, key points, sub-question types, the
 * side-by-side comparison) plugs into the experiment pipeline: a config
 * section with its own parser, and stage instances declared from it.
 *
 * @module
 */
import type { RoleClient } from "@lib/construct/mod.ts";
import type { LlmSettings, ProgressFn } from "@lib/llm/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import type { StageSpec } from "./run_stages.ts";
import type { MethodHeadline } from "./method_scores.ts";
import type { CruxExperimentConfig } from "./experiment_config.ts";

/** What a method's stages receive from the experiment they belong to. */
export interface MethodStageContext {
  /** `offline` (the embedded backends) or `openai` (any OpenAI-compatible endpoint). */
  backend: "offline" | "openai";
  /** The config's model settings per role (generator, judge, ...), for `roleClient`. */
  llm?: LlmSettings;
  /** Environment for model settings. Default `Deno.env`. */
  env?: Record<string, string | undefined>;
  /** Notes worth telling the user, by stage kind. */
  onNote?: (stage: string, message: string) => void;
  /** Progress of model calls. */
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /** Generation runs of the experiment whose answers a method evaluates (`rag-bm25`, `direct`, ...). */
  answerRuns: readonly string[];
  /** Stage ids that write those answers (`generate:rag-bm25`, ...): dependencies of judging stages. */
  answerStages: readonly string[];
  /** Stage ids that write topics, passages, sub-questions and qrels (`dataset`, `construct`, `select`). */
  dataStages: readonly string[];
  /**
   * Stage ids of the CRUX report judging and of the measures of its ratings
   * (`judge:rag-bm25`, `measure:reports:rag-bm25`, ...), for stages that compare with it.
   */
  judgeStages: readonly string[];
  /** Measure-stage ids of the methods declared before this one (`measure:nuggets`, ...), for stages that combine them. */
  methodStages?: readonly string[];
  /** Where tables and figures go (normally `outputs/<experiment>`). */
  outDir: string;
  /** The config file, for error messages. */
  configFile: string;
  /** Headline measures of the experiment's methods (see `experimentHeadlines`), in order: what the comparison reads. */
  headlines?: readonly MethodHeadline[];
}

/** What a method's backends factory receives: its section and, online, the model clients of its roles. */
export interface BackendsContext<S> {
  /** The method's checked config section (thresholds, re-asks, ...). */
  section: S;
  /** The judge role's client; absent offline. */
  judge?: RoleClient;
  /** The generator role's client; absent offline. */
  generator?: RoleClient;
}

/** Opens a method's backends for a workspace (model calls are cached there). */
export type OpenBackends<B> = (ws: Workspace) => Promise<B>;

/**
 * A method's part of an experiment config: the key of its section
 * (`"nuggets"`), a parser that checks the section and names the config file and
 * field on errors, and the stage instances it declares. Stage kinds are those of
 * the pipeline (`judge` for model work, `measure` for scores, `analyze` for
 * tables and figures), so `--from` and `--until` apply to them too.
 */
export interface MethodStages<S, B = unknown> {
  /** Key of the section in the experiment config. */
  key: string;
  /**
   * Checks the section.
   *
   * @param headlines The experiment's methods' headlines (a section naming methods checks against them).
   * @throws {TypeError} Naming `file` and the field, on an unknown or ill-typed field.
   */
  parse(raw: unknown, file: string, headlines?: readonly MethodHeadline[]): S;
  /**
   * Stage instances of the section, each after the ones it depends on.
   *
   * @param backends Opens the method's offline or model backends in a workspace.
   */
  stages(
    section: S,
    ctx: MethodStageContext,
    backends: OpenBackends<B>,
  ): StageSpec[] | Promise<StageSpec[]>;
}

/** What a method's chain receives from the experiment it declares. */
export interface ChainContext<B = unknown> {
  /** Environment for model settings. Default `Deno.env`. */
  env?: Record<string, string | undefined>;
  /** Notes worth telling the user, by stage kind. */
  onNote?: (stage: string, message: string) => void;
  /** Progress of model calls. */
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /**
   * Opens the method's backends (offline, or with the model clients of its roles).
   *
   * @param only The roles whose clients to open (default: every role of the method).
   */
  backends(only?: readonly ("judge" | "generator")[]): OpenBackends<B>;
}

/** What a chain declares: its stage instances and what the methods' stages build on. */
export interface ChainStages {
  /** The chain's stage instances, each after the ones it depends on. */
  specs: StageSpec[];
  /** The answers the chain writes and judges, for the methods' stages. */
  answers: Pick<MethodStageContext, "answerRuns" | "answerStages" | "dataStages" | "judgeStages">;
}

/**
 * A method as the pipeline receives it from the method registry: its key,
 * headline measures, model roles, the one backends factory and, when the
 * experiment config has a section for it, the section's parser and stages.
 */
export interface ExperimentMethod<S = unknown, B = unknown> {
  /** Method key (`crux`, `nuggets`, ...): the `method` column in `measures` and the section key. */
  key: string;
  /** Headline measures the comparison reads (none for the comparison itself). */
  headlines: readonly MethodHeadline[];
  /** Model roles the online backends use. */
  roles: readonly ("judge" | "generator")[];
  /** The method's backends: offline ones without clients, model ones with them. */
  backends(ctx: BackendsContext<S>): B;
  /** The method's config section (absent for CRUX, whose settings are the config's own fields). */
  section?: MethodStages<S, B>;
  /**
   * The experiment's own chain (dataset to measure), declared from the config's
   * own fields, which every experiment runs (one method declares it: CRUX).
   */
  chain?(config: CruxExperimentConfig, ctx: ChainContext<B>): Promise<ChainStages>;
}
