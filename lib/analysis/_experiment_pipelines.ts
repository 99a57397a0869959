/** What an experiment config implies for the analyses (private). */
import type { Backends } from "@lib/report/mod.ts";
import type { CruxExperimentConfig } from "./experiment_config.ts";
import type { PipelineSpec } from "./resolve_conditions.ts";

/** The config's pipelines: every retrieval and reranked run, with its reports `rag-{run}`. */
export function experimentPipelines(config: CruxExperimentConfig): PipelineSpec[] {
  const names = [
    ...(config.retrieve ?? [{ name: "bm25" }]).map((r) => r.name),
    ...(config.rerank ?? []).map((r) => r.name),
  ];
  return names.map((name) => ({ generation: `rag-${name}`, run: name, label: name }));
}

/** Backend labels the config adds to the inferred ones (TF-IDF vectors of MMR reranking). */
export function experimentBackends(config: CruxExperimentConfig): Backends | undefined {
  return config.rerank?.length ? { embedder: "tfidf" } : undefined;
}
