/**
 * Model clients and answerability judges for the pipeline roles, shared by the
 * chain and the commands: a client caching in the workspace, and the judge a
 * step uses (the model behind a client, or the offline lexical judge).
 *
 * @module
 */
import {
  type AnswerabilityJudge,
  CallCache,
  ClientLimits,
  JOURNAL_FILE,
  llmAnswerabilityJudge,
  LlmClient,
  type LlmSettings,
  type ResolvedRole,
  resolveRoleConfig,
  type Role,
  type RoleOverrides,
} from "@lib/llm/mod.ts";
import type { DuckDBConnection } from "@duckdb/node-api";
import { join } from "node:path";
import type { WorkspaceLike } from "@lib/store/mod.ts";
import { workspaceLexicalJudge } from "./workspace_lexical_judge.ts";

/** A client whose calls are cached in the workspace's `llm_calls`, plus its templates folder. */
export interface RoleClient {
  client: LlmClient;
  templatesDir?: string;
}

/**
 * Resolves a role's settings (flags over environment over config) and opens a
 * client whose calls are cached in the workspace's `llm_calls`. Clients of one
 * role with the same endpoint, model, concurrency and rates share their limits
 * ({@linkcode ClientLimits}), so that stages running at once keep together to them;
 * every client of a workspace shares its one call cache (on the workspace's own
 * connection, also when given a fork), so none asks a call another is asking or
 * has answered.
 *
 * @param ws The workspace (its DuckDB connection holds the cache).
 * @param role `generator`, `judge`, `embedder` or `reranker`.
 * @param opts Config settings, flag overrides and the environment.
 * @returns The client and the role's templates folder.
 * @example
 * ```ts
 * import { roleClient } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const { client } = await roleClient(ws, "judge", { env: { CRUX_JUDGE_MODEL: "judge-m" } });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function roleClient(
  ws: CacheHost,
  role: Role,
  opts: {
    config?: LlmSettings;
    overrides?: RoleOverrides;
    env?: Record<string, string | undefined>;
  } = {},
): Promise<RoleClient> {
  const settings = resolveRoleConfig(role, opts);
  const cache = await workspaceCache(ws);
  const { templatesDir, ...clientOpts } = settings;
  const limits = clientOpts.limits ?? sharedLimits(role, clientOpts);
  return { client: new LlmClient({ ...clientOpts, cache, limits }), templatesDir };
}

/** What a role client needs of a workspace (or of a fork of one) to reach its call cache. */
type CacheHost = {
  connection: DuckDBConnection;
  dir?: string;
  parent?: { connection: DuckDBConnection };
};

/** The call cache of each open workspace, by the connection it is on. */
const caches = new WeakMap<DuckDBConnection, Promise<CallCache>>();

/**
 * The one call cache of a workspace, on the connection of the workspace itself
 * (not of a fork, which closes with its stage): role clients of stages running at
 * once then see each other's answers, committed or not, and calls being asked.
 */
function workspaceCache(ws: CacheHost): Promise<CallCache> {
  const connection = ws.parent?.connection ?? ws.connection;
  let cache = caches.get(connection);
  if (!cache) {
    cache = CallCache.open(connection, {
      journal: ws.dir === undefined ? undefined : join(ws.dir, JOURNAL_FILE),
    });
    caches.set(connection, cache);
    cache.catch(() => caches.delete(connection)); // a failed open is tried again next time
  }
  return cache;
}

/** Limits of the role clients opened in this process, by role and settings. */
const limitsBySettings = new Map<string, ClientLimits>();

/**
 * The limits of a role's clients: one set for every client of the role with the
 * same endpoint, model, concurrency and rates, so that stages running at once
 * (`runStages` with `parallel`) keep together to the role's concurrency and rates.
 */
function sharedLimits(role: Role, o: Omit<ResolvedRole, "templatesDir">): ClientLimits {
  // Keyed by the limits' own values, defaults applied (an unset concurrency equals 8).
  const fresh = new ClientLimits({ concurrency: o.concurrency, rpm: o.rpm, tpm: o.tpm });
  const key = JSON.stringify([role, o.baseUrl, o.model, fresh.concurrency, fresh.rpm, fresh.tpm]);
  let limits = limitsBySettings.get(key);
  if (!limits) limitsBySettings.set(key, limits = fresh);
  return limits;
}

/**
 * The answerability judge of a step: the model behind `c` when given,
 * otherwise the offline lexical judge with IDF over the workspace's passages.
 *
 * @param ws The workspace.
 * @param c The judge role's client, or undefined for the offline backend.
 * @returns The judge.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { roleJudge } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * assert.equal(roleJudge(ws).name, "lexical");
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function roleJudge(ws: WorkspaceLike, c?: RoleClient): AnswerabilityJudge {
  return c
    ? llmAnswerabilityJudge(c.client, { templatesDir: c.templatesDir })
    : workspaceLexicalJudge(ws);
}
