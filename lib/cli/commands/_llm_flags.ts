// Command-line flags shared by the LLM commands (judge, batch, llm).
import { UsageError } from "../command.ts";
import type { LlmSettings, ResolvedRole } from "@lib/llm/mod.ts";

export const clientFlags = {
  model: { type: "string" },
  "base-url": { type: "string" },
  concurrency: { type: "string" },
  "max-retries": { type: "string" },
  "timeout-ms": { type: "string" },
  rpm: { type: "string" },
  tpm: { type: "string" },
  templates: { type: "string" },
  workspace: { type: "string" },
  config: { type: "string" },
} as const;

/** Reads an integer flag (undefined when absent); throws UsageError below `min` or when not an integer. */
export function int(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name} must be an integer >= ${min}, found "${v}"`);
  }
  return n;
}

export function clientOverrides(
  v: Record<string, string | boolean | undefined>,
): Partial<ResolvedRole> {
  const s = (k: string) => (typeof v[k] === "string" ? v[k] as string : undefined);
  const o: Partial<ResolvedRole> = {};
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

/** Reads the `llm` section of an experiment config file (empty when no file is given). */
export async function readLlmConfig(path: string | undefined): Promise<LlmSettings> {
  if (!path) return {};
  let parsed: { llm?: LlmSettings };
  try {
    parsed = JSON.parse(await Deno.readTextFile(path));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new UsageError(`Cannot read config "${path}": ${why}`);
  }
  return parsed.llm ?? {};
}
