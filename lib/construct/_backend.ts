/** Builds a cached model client for a pipeline role from settings, flags and the environment. */
import {
  CallCache,
  LlmClient,
  type LlmSettings,
  type ResolvedRole,
  resolveRoleConfig,
  type Role,
} from "@lib/llm/mod.ts";
import type { DuckDBConnection } from "@duckdb/node-api";

/** A client whose calls are cached in the workspace's `llm_calls`, plus its templates folder. */
export interface RoleClient {
  client: LlmClient;
  templatesDir?: string;
}

/** Resolves the role's settings and opens a client caching in the workspace connection. */
export async function roleClient(
  ws: { connection: DuckDBConnection },
  role: Role,
  opts: {
    config?: LlmSettings;
    overrides?: Partial<ResolvedRole>;
    env?: Record<string, string | undefined>;
  } = {},
): Promise<RoleClient> {
  const settings = resolveRoleConfig(role, opts);
  const cache = await CallCache.open(ws.connection);
  const { templatesDir, ...clientOpts } = settings;
  return { client: new LlmClient({ ...clientOpts, cache }), templatesDir };
}
