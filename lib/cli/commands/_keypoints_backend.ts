// Backends of `crux keypoints` actions: offline, or the model of a role with calls cached in a workspace.
import { join } from "node:path";
import { LlmClient, openCallCache, resolveRoleConfig, type Role } from "@lib/llm/mod.ts";
import { guardOutputs, type OutputTarget } from "@lib/formats/mod.ts";
import { chooseBackend, clientOverrides, int, readLlmConfig } from "./_llm_flags.ts";
import { UsageError } from "../command.ts";
import { KEYPOINTS, type KeyPointSection } from "@lib/methods/mod.ts";

export type Flags = Record<string, string | boolean | string[] | undefined>;

/** A model client (online) or nothing (offline), plus settings for the backends. */
export interface OpenBackend {
  client?: LlmClient;
  templatesDir?: string;
  reasks: number;
}

/** Checks the output paths, picks the backend and runs `fn` with it (closing the cache after). */
export async function withBackend<T>(
  values: Flags,
  role: Role,
  files: {
    inputs: Record<string, string | undefined>;
    outputs: Record<string, OutputTarget>;
  },
  fn: (b: OpenBackend) => Promise<T>,
): Promise<T> {
  const workspace = typeof values.workspace === "string"
    ? values.workspace
    : join("outputs", "default");
  const backend = chooseBackend(values, {
    model: "openai",
    offline: ["offline"],
    fallback: "offline",
  });
  await guardOutputs({
    inputs: { ...files.inputs, "--config": values.config as string | undefined },
    outputs: files.outputs,
    ...(backend === "offline" ? {} : { workspace }),
  });
  const reasks = int("reasks", values.reasks as string | undefined, 0) ?? 2;
  if (backend === "offline") return await fn({ reasks });
  const config = await readLlmConfig(values.config as string | undefined);
  const settings = resolveRoleConfig(role, { config, overrides: clientOverrides(values) });
  const opened = await openCallCache(workspace);
  try {
    const { templatesDir, ...clientOpts } = settings;
    const client = new LlmClient({ ...clientOpts, cache: opened.cache });
    return await fn({ client, templatesDir, reasks });
  } finally {
    await opened.close();
  }
}

/** The key point method's backends (its one factory) for an opened backend and the flags' settings. */
export function keyPointBackends(b: OpenBackend, settings: KeyPointSection) {
  return KEYPOINTS.backends({
    section: { ...settings, reasks: b.reasks },
    judge: b.client ? { client: b.client, templatesDir: b.templatesDir } : undefined,
  });
}

/** A number flag in (0, 1]. */
export function fraction(name: string, v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!(n > 0 && n <= 1)) {
    throw new UsageError(`--${name} must be a number in (0, 1], found "${v}"`);
  }
  return n;
}
