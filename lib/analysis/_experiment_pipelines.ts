/** What an experiment config implies for the analyses (private). */
import { resolveRoleConfig } from "@lib/llm/mod.ts";
import type { Backends } from "@lib/report/mod.ts";
import type { CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import type { PipelineSpec } from "./resolve_conditions.ts";

/**
 * The config's pipelines: every retrieval and reranked run, with its reports
 * `rag-{run}`. With a `grid` section the grid's runs come grouped as in the
 * CRUX paper's Table 1: each first stage followed by its reranked cells, in
 * reranker order; then the other runs in config order.
 */
export function experimentPipelines(config: CruxExperimentConfig): PipelineSpec[] {
  const names = [
    ...(config.retrieve ?? [{ name: "bm25" }]).map((r) => r.name),
    ...(config.rerank ?? []).map((r) => r.name),
  ];
  const grid = config.grid;
  const grouped = grid
    ? [
      ...grid.first.flatMap((
        f,
      ) => [f, ...grid.cells.filter((c) => c.first === f).map((c) => c.run)]),
      ...names.filter((n) => !grid.first.includes(n) && !grid.cells.some((c) => c.run === n)),
    ]
    : names;
  return grouped.map((name) => ({ generation: `rag-${name}`, run: name, label: name }));
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
  for (const r of config.rerank ?? []) {
    if (r.method !== "mmr") continue;
    embedders.add(
      r.vectors === "embedder" ? roleModel("embedder", config, env, "openai") : "tfidf",
    );
  }
  const backends: Backends = {};
  if (embedders.size) backends.embedder = [...embedders].sort().join(" + ");
  // The lexical reranker is the offline stand-in ("lexical" is labelled offline).
  const rerankers = new Set<string>();
  for (const r of config.rerank ?? []) {
    if (r.method === "lexical") rerankers.add("lexical");
    else if (r.method !== "mmr") rerankers.add(roleModel("reranker", config, env, "endpoint"));
  }
  if (rerankers.size) backends.reranker = [...rerankers].sort().join(" + ");
  return Object.keys(backends).length ? backends : undefined;
}
