/**
 * How an evaluation method (nuggets, key points, sub-question types, the
 * side-by-side comparison) plugs into the experiment pipeline: a config
 * section with its own parser, and stage instances declared from it.
 *
 * @module
 */
import type { LlmSettings, ProgressFn } from "@lib/llm/mod.ts";
import type { StageSpec } from "./run_stages.ts";

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
  /** Stage ids of the CRUX report judging (`judge:rag-bm25`, ...), for stages that compare with it. */
  judgeStages: readonly string[];
  /** Measure-stage ids of the methods declared before this one (`measure:nuggets`, ...), for stages that combine them. */
  methodStages?: readonly string[];
  /** Where tables and figures go (normally `outputs/<experiment>`). */
  outDir: string;
  /** The config file, for error messages. */
  configFile: string;
}

/**
 * A method's part of an experiment config: the key of its section
 * (`"nuggets"`), a parser that checks the section and names the config file and
 * field on errors, and the stage instances it declares. Stage kinds are those of
 * the pipeline (`judge` for model work, `measure` for scores, `analyze` for
 * tables and figures), so `--from` and `--until` apply to them too.
 */
export interface MethodStages<S> {
  /** Key of the section in the experiment config. */
  key: string;
  /**
   * Checks the section.
   *
   * @throws {TypeError} Naming `file` and the field, on an unknown or ill-typed field.
   */
  parse(raw: unknown, file: string): S;
  /** Stage instances of the section, each after the ones it depends on. */
  stages(section: S, ctx: MethodStageContext): StageSpec[] | Promise<StageSpec[]>;
}
