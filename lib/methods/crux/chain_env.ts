/**
 * What every stage of the CRUX chain shares: the model clients by role, the
 * model names and prompt files that enter stage parameters, the CRUX settings,
 * the passage judge rule and the rule for stages whose topics all wait for
 * failed passage ratings.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { promptSet, resolveRoleConfig } from "@lib/llm/mod.ts";
import {
  incompleteRatingTopics,
  passageJudge as choosePassageJudge,
  type Workspace,
} from "@lib/store/mod.ts";
import { type RoleClient, roleClient, roleJudge } from "@lib/construct/mod.ts";
import {
  type ChainContext,
  type CruxExperimentConfig,
  type CruxSettings,
  cruxSettings,
  type StageOutcome,
} from "@lib/pipeline/mod.ts";

/** CRUX's model clients: the judge rates passages and reports, the generator writes reports (none offline). */
export interface CruxBackends {
  judge?: RoleClient;
  generator?: RoleClient;
}

/** A model role of the chain's stages. */
export type ChainRole = "generator" | "judge" | "embedder" | "reranker";

/** The shared part of the CRUX chain's stages (see {@linkcode cruxChainEnv}). */
export interface CruxChainEnv {
  config: CruxExperimentConfig;
  /** Whether the experiment calls models (`backend: "openai"`). */
  online: boolean;
  ctx: ChainContext<CruxBackends>;
  /** The note callback of a stage kind. */
  note(stage: string): (message: string) => void;
  /** Progress callback and signal, for the stages' model calls. */
  common: Pick<ChainContext<CruxBackends>, "onProgress" | "signal">;
  /** The client of a role (none offline). */
  client(ws: Workspace, role: ChainRole): Promise<RoleClient | undefined>;
  /** Model names per role and the prompt files' source, or `offline`: a stage parameter. */
  models: unknown;
  settings: CruxSettings;
  /** The construction's answerability threshold. */
  tau: number;
  /** The analyses' density exponent where it is not the default (else undefined). */
  w?: number;
  /** The experiment's judge's name. */
  judgeName(ws: Workspace): Promise<string>;
  /** The judge of the passage ratings: of the selection when `selecting`, else of the measures. */
  passageJudge(ws: Workspace, selecting?: boolean): Promise<string>;
  /** Runs a stage's work, saying "nothing to do" when every topic waits for failed passage ratings. */
  unlessWaiting(
    ws: Workspace,
    work: () => Promise<string | StageOutcome>,
  ): Promise<string | StageOutcome>;
}

/**
 * The shared part of the CRUX chain of an experiment config.
 *
 * @param config A checked experiment config.
 * @param ctx Environment, callbacks and the opener of CRUX's backends.
 * @returns What the chain's stage builders share.
 * @throws {Error} As `promptSet`, when a configured prompt file is unreadable (before any call).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxChainEnv } from "./chain_env.ts";
 * const env = cruxChainEnv({ name: "x", workspace: "outputs/x" }, {
 *   backends: () => () => Promise.resolve({}),
 * });
 * assert.equal(env.models, "offline");
 * assert.equal(env.tau, 3);
 * ```
 */
export function cruxChainEnv(
  config: CruxExperimentConfig,
  ctx: ChainContext<CruxBackends>,
): CruxChainEnv {
  const online = config.backend === "openai";
  // The judge and the generator open through the CRUX declaration's backends factory,
  // as every method's do; the embedder and the reranker belong to runs, not to a method.
  const client = async (ws: Workspace, role: ChainRole): Promise<RoleClient | undefined> => {
    if (!online) return undefined;
    if (role === "embedder" || role === "reranker") {
      return await roleClient(ws, role, { config: config.llm, env: ctx.env });
    }
    return (await ctx.backends([role])(ws))[role];
  };
  // Model names are part of the stages' parameters: another model re-runs them.
  const modelOf = (role: ChainRole) => {
    try {
      return resolveRoleConfig(role, { config: config.llm, env: ctx.env }).model;
    } catch {
      return null;
    }
  };
  // The user's prompt files too (their texts' hashes name the source), checked here
  // before any call: another prompt re-runs the stages.
  const files = config.llm?.prompts ?? {};
  const prompts = online && Object.keys(files).length
    ? promptSet(files, {
      dir: (ctx.env ?? Deno.env.toObject()).CRUX_PROMPTS_DIR ?? config.llm?.templatesDir,
    })
    : undefined;
  const models = online
    ? Object.fromEntries([
      ...(["generator", "judge", "embedder", "reranker"] as const).map((r) => [r, modelOf(r)]),
      ...(prompts ? [["prompts", prompts]] : []),
    ])
    : "offline";
  const settings = cruxSettings(config);
  const judgeName = async (ws: Workspace) => roleJudge(ws, await client(ws, "judge")).name;
  return {
    config,
    online,
    ctx,
    note: (stage) => (m) => ctx.onNote?.(stage, m),
    common: { onProgress: ctx.onProgress, signal: ctx.signal },
    client,
    models,
    settings,
    tau: settings.constructTau,
    // Only a non-default density exponent enters the judge's parameters.
    w: settings.w === CRUX_DEFAULTS.w ? undefined : settings.w,
    judgeName,
    /**
     * The judge of the passage ratings: the only one, else (measuring) the judge of
     * the selection, else the experiment's judge.
     */
    async passageJudge(ws, selecting = false) {
      const own = await judgeName(ws);
      return await choosePassageJudge(ws, selecting ? "select" : "measure", undefined, {
        prefer: own,
        selection: !selecting,
      }).catch(async (error) => {
        // No passage rated yet because the ratings failed: the experiment's judge, whose
        // topics wait (left out of the selection, no means) until a re-run rates them.
        if (error instanceof RangeError && (await incompleteRatingTopics(ws, own)).length) {
          return own;
        }
        throw error;
      });
    },
    /**
     * Runs a stage's work; when it finds nothing to work on because every topic waits
     * for failed passage ratings (left out of the selection), says so instead of failing.
     */
    async unlessWaiting(ws, work) {
      try {
        return await work();
      } catch (error) {
        const waiting = error instanceof RangeError &&
          (await incompleteRatingTopics(ws, await judgeName(ws))).length > 0;
        if (!waiting) throw error;
        return `nothing to do: every topic waits for failed passage ratings (re-run to retry them)`;
      }
    },
  };
}
