// Command-line flags shared by the LLM commands (judge, batch, llm).
import { dirname, isAbsolute, join } from "node:path";
import { UsageError } from "../command.ts";
import { type LlmSettings, parsePromptFlags, type Role, type RoleOverrides } from "@lib/llm/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import { type RoleClient, roleClient } from "@lib/construct/mod.ts";
import { parseConfigJson, readConfigText } from "@lib/pipeline/config_json.ts";

export const clientFlags = {
  model: { type: "string" },
  "base-url": { type: "string" },
  concurrency: { type: "string" },
  "max-retries": { type: "string" },
  "timeout-ms": { type: "string" },
  rpm: { type: "string" },
  tpm: { type: "string" },
  templates: { type: "string" },
  /** A user's prompt file for a step: `--prompt FILE` or `--prompt NAME=FILE`, repeatable. */
  prompt: { type: "string", multiple: true },
  workspace: { type: "string" },
  config: { type: "string" },
} as const;

/** Flags that name a model or an endpoint: without `--backend` they select the model backend. */
export const MODEL_FLAGS = ["model", "base-url"] as const;

/** Flags that only tune model calls; an offline backend has no use for them. */
export const TUNING_FLAGS = [
  "concurrency",
  "max-retries",
  "timeout-ms",
  "rpm",
  "tpm",
  "templates",
  "prompt",
  "config",
] as const;

/** The backends of a command with both a model path and an offline path. */
export interface BackendNames {
  /** The backend that calls a model, e.g. `openai`. */
  model: string;
  /** Names of the offline backend (first is canonical), e.g. `["extractive", "offline"]`. */
  offline: readonly string[];
  /** Backend when neither `--backend` nor a model flag is given. */
  fallback: string;
}

/**
 * Picks a command's backend from `--backend` and the model flags, so that no
 * model flag is ever ignored: `--model`/`--base-url` without `--backend` select
 * the model backend, and an offline backend (given or default) together with any
 * model or tuning flag is a usage error. Offline aliases map to the canonical name.
 *
 * @param values Parsed flags (`backend` must have no parseArgs default).
 * @param names The command's backend names and default.
 * @returns The canonical backend name.
 * @throws {UsageError} On an unknown backend, or model flags with an offline backend.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chooseBackend } from "@lib/cli/commands/_llm_flags.ts";
 * const names = { model: "openai", offline: ["lexical", "offline"], fallback: "lexical" };
 * assert.equal(chooseBackend({ model: "gpt-4o" }, names), "openai");
 * assert.equal(chooseBackend({ backend: "offline" }, names), "lexical");
 * assert.equal(chooseBackend({}, names), "lexical");
 * ```
 */
export function chooseBackend(
  values: Record<string, string | boolean | string[] | undefined>,
  names: BackendNames,
): string {
  const given = (list: readonly string[]) =>
    list.filter((k) => values[k] !== undefined && values[k] !== false).map((k) => `--${k}`);
  const known = [names.model, ...names.offline];
  const asked = values.backend;
  if (asked !== undefined && (typeof asked !== "string" || !known.includes(asked))) {
    const list = `${known.slice(0, -1).join(", ")} or ${known.at(-1)}`;
    throw new UsageError(`Unknown backend "${asked}": use ${list}`);
  }
  const backend = typeof asked === "string"
    ? asked
    : given(MODEL_FLAGS).length
    ? names.model
    : names.fallback;
  if (backend === names.model) return backend;
  const canonical = names.offline[0];
  const stray = given([...MODEL_FLAGS, ...TUNING_FLAGS]);
  if (stray.length && asked !== undefined) {
    throw new UsageError(
      `--backend ${asked} conflicts with ${stray.join(", ")}: the ${canonical} backend makes ` +
        `no model calls; drop those flags or use --backend ${names.model}`,
    );
  }
  if (stray.length) {
    throw new UsageError(
      `${stray.join(", ")} only ${stray.length > 1 ? "configure" : "configures"} model calls, ` +
        `but the default backend is ${canonical} (offline); add --model M or ` +
        `--backend ${names.model}, or drop ${stray.length > 1 ? "them" : "it"}`,
    );
  }
  return canonical;
}

/** Reads an integer flag (undefined when absent); throws UsageError below `min` or when not an integer. */
export function int(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name} must be an integer >= ${min}, found "${v}"`);
  }
  return n;
}

/**
 * The role settings given by flags (`--model`, `--base-url`, `--templates`,
 * `--prompt`, limits); prompt files are named here and read when the role is
 * resolved.
 *
 * @throws {UsageError} On a malformed number or a `--prompt` naming no step.
 */
export function clientOverrides(
  v: Record<string, string | boolean | string[] | undefined>,
): RoleOverrides {
  const s = (k: string) => (typeof v[k] === "string" ? v[k] as string : undefined);
  const o: RoleOverrides = {};
  if (Array.isArray(v.prompt) && v.prompt.length) {
    try {
      o.prompts = parsePromptFlags(v.prompt);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  }
  if (s("model")) o.model = s("model");
  if (s("base-url")) o.baseUrl = s("base-url");
  if (s("templates")) o.templatesDir = s("templates");
  const c = int("concurrency", s("concurrency"), 1);
  if (c !== undefined) o.concurrency = c;
  const r = int("max-retries", s("max-retries"), 0);
  if (r !== undefined) o.maxRetries = r;
  const t = int("timeout-ms", s("timeout-ms"), 1);
  if (t !== undefined) o.timeoutMs = t;
  const rpm = int("rpm", s("rpm"), 1);
  if (rpm !== undefined) o.rpm = rpm;
  const tpm = int("tpm", s("tpm"), 1);
  if (tpm !== undefined) o.tpm = tpm;
  return o;
}

/**
 * Reads the `llm` section of an experiment config file (empty when no file is
 * given), with the config's `prompts` section (template id -> file, relative to
 * the config file) as its prompt files.
 */
export async function readLlmConfig(path: string | undefined): Promise<LlmSettings> {
  if (!path) return {};
  // As strict as the experiment config reader: UTF-8, BOM, located errors, numbers in range.
  const parsed = parseConfigJson(await readConfigText(path, "config"), path, "config") as
    | { llm?: LlmSettings; prompts?: Record<string, string> }
    | null;
  const llm = parsed?.llm ?? {};
  if (parsed?.prompts === undefined) return llm;
  const files = parsed.prompts;
  if (typeof files !== "object" || files === null || Array.isArray(files)) {
    throw new UsageError(`Cannot read config "${path}": "prompts" must map step names to files`);
  }
  const prompts: Record<string, string> = { ...llm.prompts };
  for (const [id, file] of Object.entries(files)) {
    if (typeof file !== "string") {
      throw new UsageError(`Cannot read config "${path}": prompts.${id} must be a file name`);
    }
    prompts[id] = isAbsolute(file) ? file : join(dirname(path), file);
  }
  return { ...llm, prompts };
}

/**
 * The role's client configured by the command's flags (`--config`, `--model`,
 * `--base-url`, ...), caching in the workspace; undefined for offline backends.
 *
 * @param ws The open workspace.
 * @param role The pipeline role.
 * @param values Parsed flags.
 * @param online Whether the chosen backend calls a model.
 * @returns The client, or undefined when `online` is false.
 */
export async function flagRoleClient(
  ws: Workspace,
  role: Role,
  values: Record<string, string | boolean | string[] | undefined>,
  online: boolean,
): Promise<RoleClient | undefined> {
  if (!online) return undefined;
  const config = await readLlmConfig(typeof values.config === "string" ? values.config : undefined);
  return await roleClient(ws, role, { config, overrides: clientOverrides(values) });
}
