// Model settings per role (generator, judge, embedder, reranker) from configs and the environment.

import type { LlmClientOptions } from "./client_options.ts";
import type { Role, SamplingParams } from "./types.ts";
import { promptSet } from "./prompt_files.ts";

/** Price of a model in US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/** Settings of one role in an experiment config (`llm.roles.<role>`). */
export interface RoleSettings extends SamplingParams {
  model?: string;
  baseUrl?: string;
  /** Name of the environment variable holding this role's key (keys never live in configs). */
  apiKeyEnv?: string;
  /** Largest answer accepted from this role, in bytes (default: the `llm` section's, else 256 KiB). */
  maxAnswerBytes?: number;
}

/** The `llm` section of an experiment config. */
export interface LlmSettings {
  baseUrl?: string;
  concurrency?: number;
  maxRetries?: number;
  /** Longest wait before a retry, whatever `Retry-After` asks, in ms (default 120000). */
  maxRetryWaitMs?: number;
  /** Largest answer accepted, in bytes (default 262144); roles may set their own. */
  maxAnswerBytes?: number;
  timeoutMs?: number;
  rpm?: number;
  tpm?: number;
  /** Folder of replacement prompt templates. */
  templatesDir?: string;
  /**
   * A user's prompt file per step: template id -> file (a template or plain text with
   * the step's placeholders), read and checked when the role is resolved.
   */
  prompts?: Record<string, string>;
  /** Model name -> price per million tokens. */
  prices?: Record<string, ModelPrice>;
  roles?: Partial<Record<Role, RoleSettings>>;
}

/** Client settings resolved for one role (feed to `new LlmClient({ ...settings, cache })`). */
export type ResolvedRole = Omit<LlmClientOptions, "cache" | "fetch" | "random"> & {
  templatesDir?: string;
};

/** Command-line settings of a role: any resolved field, plus prompt files (`--prompt`). */
export type RoleOverrides = Partial<ResolvedRole> & { prompts?: Record<string, string> };

/** Default base URL when neither flags, config nor environment give one. */
export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

const num = (v: string | undefined, name: string): number | undefined => {
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new TypeError(`Invalid ${name}="${v}": expected a number`);
  return n;
};

/**
 * Resolves the endpoint, key, model and parameters of a role. Precedence, first
 * wins: `overrides` (command-line flags), environment variables of the role
 * (`CRUX_<ROLE>_BASE_URL`, `CRUX_<ROLE>_MODEL`, `CRUX_<ROLE>_API_KEY`, or the
 * variable named by `apiKeyEnv`), the config's `llm.roles.<role>`, the general
 * environment (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `CRUX_LLM_CONCURRENCY`),
 * the config's `llm` fields, and defaults (base URL {@link DEFAULT_BASE_URL},
 * concurrency 8). Keys come only from the environment. Prompt files (the
 * config's `prompts`, then `overrides.prompts` step by step) are read and
 * checked here, before any call, and `templatesDir` becomes the prompt source
 * holding them (see `promptSet`).
 *
 * @param role `generator`, `judge`, `embedder` or `reranker`.
 * @param opts `env` (default: the process environment), `config` (an experiment config's
 *   `llm` section), `overrides` (flags).
 * @returns The client settings.
 * @throws {TypeError} When no model is configured, a numeric variable is not a number,
 *   or a prompt file is unreadable or has an unknown or missing placeholder.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const s = resolveRoleConfig("judge", { env: { CRUX_JUDGE_MODEL: "llama-70b" } });
 * assert.equal(s.model, "llama-70b");
 * ```
 */
export function resolveRoleConfig(
  role: Role,
  opts: {
    env?: Readonly<Record<string, string | undefined>>;
    config?: LlmSettings;
    overrides?: RoleOverrides;
  } = {},
): ResolvedRole {
  const env = opts.env ?? Deno.env.toObject();
  const cfg = opts.config ?? {};
  const r = cfg.roles?.[role] ?? {};
  const o = opts.overrides ?? {};
  const R = `CRUX_${role.toUpperCase()}_`;
  const model = o.model ?? env[`${R}MODEL`] ?? r.model;
  if (!model) {
    throw new TypeError(
      `No model for the ${role} role: pass --model, set ${R}MODEL, or set llm.roles.${role}.model in the config`,
    );
  }
  const params: SamplingParams = {};
  for (const k of ["temperature", "topP", "maxTokens", "seed"] as const) {
    if (r[k] !== undefined) params[k] = r[k];
  }
  if (r.stop) params.stop = [...r.stop];
  const pick = <T>(...vs: (T | undefined)[]) => vs.find((v) => v !== undefined);
  return {
    model,
    baseUrl: pick(o.baseUrl, env[`${R}BASE_URL`], r.baseUrl, env.OPENAI_BASE_URL, cfg.baseUrl) ??
      DEFAULT_BASE_URL,
    apiKey: pick(
      o.apiKey,
      env[`${R}API_KEY`],
      r.apiKeyEnv ? env[r.apiKeyEnv] : undefined,
      env.OPENAI_API_KEY,
    ),
    params: { ...params, ...o.params },
    concurrency:
      pick(o.concurrency, num(env.CRUX_LLM_CONCURRENCY, "CRUX_LLM_CONCURRENCY"), cfg.concurrency) ??
        8,
    maxRetries: pick(o.maxRetries, cfg.maxRetries),
    maxRetryWaitMs: pick(o.maxRetryWaitMs, cfg.maxRetryWaitMs),
    maxAnswerBytes: pick(o.maxAnswerBytes, r.maxAnswerBytes, cfg.maxAnswerBytes),
    timeoutMs: pick(o.timeoutMs, cfg.timeoutMs),
    rpm: pick(o.rpm, cfg.rpm),
    tpm: pick(o.tpm, cfg.tpm),
    templatesDir: promptSource(pick(o.templatesDir, env.CRUX_PROMPTS_DIR, cfg.templatesDir), {
      ...cfg.prompts,
      ...o.prompts,
    }),
  };
}

/** The templates folder, or the prompt source of the user's files over it. */
function promptSource(dir: string | undefined, files: Record<string, string>): string | undefined {
  return Object.keys(files).length ? promptSet(files, { dir }) : dir;
}
