/** The rerank stage's provenance of one reranked run (the CRUX chain's rerank stages). */
import type { RerankConfig, RerankSummary } from "@lib/construct/mod.ts";
import { recordRerankUsage, recordRun, type Workspace } from "@lib/store/mod.ts";
import type { CruxExperimentConfig } from "@lib/pipeline/mod.ts";

/** What the provenance says of a reranker that calls no model. */
export const STAND_IN_NOTES: Record<string, string> = {
  lexical: "offline stand-in for the model rerankers: BM25 over each topic's candidates for " +
    "the request expanded by its sub-questions (no model)",
  mmr: "offline stand-in for MMR over all-mpnet-base-v2 vectors: TF-IDF vectors of each " +
    "topic's candidates (no model)",
};

/**
 * Records how the run was made (`run_info`: method, settings, first stage,
 * and for the offline rerankers a `standIn` note) and what it cost
 * (`rerank_usage`: calls, tokens, wall time, and US dollars where the model
 * has a price in `grid.prices` or `llm.prices`; 0 for the offline rerankers).
 * A run the stage found already stored keeps its earlier usage record.
 */
export async function recordRerankCell(
  ws: Workspace,
  config: CruxExperimentConfig,
  r: RerankConfig,
  s: RerankSummary,
  at: { wallMs: number; model: string | null },
): Promise<void> {
  const offline = at.model === null;
  const standIn = offline ? STAND_IN_NOTES[r.method] : undefined;
  await recordRun(ws, {
    run: r.name,
    kind: r.method,
    params: standIn ? { ...r, standIn } : r,
    sources: [r.from],
  });
  if (s.skipped) return;
  const cell = config.grid?.cells.find((c) => c.run === r.name);
  const u = s.usage;
  const price = at.model ? (config.grid?.prices ?? config.llm?.prices)?.[at.model] : undefined;
  const costUsd = offline
    ? 0
    : price && u.promptTokens !== null && u.completionTokens !== null
    ? (u.promptTokens * price.input + u.completionTokens * price.output) / 1e6
    : null;
  await recordRerankUsage(ws, {
    run: r.name,
    source: r.from,
    method: r.method,
    reranker: cell?.reranker ?? r.method,
    model: at.model,
    offline,
    calls: u.calls,
    cached: u.cached,
    embedded: u.embedded,
    promptTokens: u.promptTokens,
    completionTokens: u.completionTokens,
    wallMs: at.wallMs,
    costUsd,
    counts: s.counts,
  });
}
