/** What an experiment config implies for the analyses (private). */
import { resolveRoleConfig } from "@lib/llm/mod.ts";
import type { Backends } from "@lib/report/mod.ts";
import type { CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import type { PipelineSpec } from "./resolve_conditions.ts";

/** The config's pipelines: every retrieval and reranked run, with its reports `rag-{run}`. */
export function experimentPipelines(config: CruxExperimentConfig): PipelineSpec[] {
  const names = [
    ...(config.retrieve ?? [{ name: "bm25" }]).map((r) => r.name),
    ...(config.rerank ?? []).map((r) => r.name),
  ];
  return names.map((name) => ({ generation: `rag-${name}`, run: name, label: name }));
}

/** The model of a role as configured, or `fallback` when none is (yet) set. */
function roleModel(
  role: "embedder" | "reranker",
  config: CruxExperimentConfig,
  env: Record<string, string | undefined> | undefined,
  fallback: string,
): string {
  try {
    return resolveRoleConfig(role, { config: config.llm, env }).model;
  } catch {
    return fallback;
  }
}

/**
 * Backend labels the config adds to the inferred ones: the embedder (`tfidf`
 * for MMR reranking and TF-IDF dense runs, the embedder role's model for
 * `openai` dense runs, joined by ` + ` when both) and the reranker role's
 * model for endpoint reranking.
 */
export function experimentBackends(
  config: CruxExperimentConfig,
  env?: Record<string, string | undefined>,
): Backends | undefined {
  const embedders = new Set<string>();
  for (const r of config.retrieve ?? []) {
    if (r.kind !== "dense") continue;
    embedders.add(r.embedder === "tfidf" ? "tfidf" : roleModel("embedder", config, env, "openai"));
  }
  if (config.rerank?.some((r) => r.method === "mmr")) embedders.add("tfidf");
  const backends: Backends = {};
  if (embedders.size) backends.embedder = [...embedders].sort().join(" + ");
  if (config.rerank?.some((r) => r.method === "endpoint")) {
    backends.reranker = roleModel("reranker", config, env, "endpoint");
  }
  return Object.keys(backends).length ? backends : undefined;
}
