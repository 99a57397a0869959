// Private to `@lib/analysis`: the note naming reranked runs whose model returned no
// log-probabilities, so that their order came from the generated text instead.
import { readRerankUsage, type WorkspaceLike } from "@lib/store/mod.ts";
import type { Analysis } from "./types.ts";

/** A reranked run that fell back to the generated text, and how often. */
export interface RerankFallback {
  run: string;
  method: string;
  /** Windows (first-token) or comparisons (setwise-logprobs) decided by the text. */
  fallback: number;
}

/** Reranked runs of the workspace with at least one fallback. */
export async function rerankFallbacks(ws: WorkspaceLike): Promise<RerankFallback[]> {
  return (await readRerankUsage(ws))
    .filter((u) => (u.counts.fallback ?? 0) > 0)
    .map((u) => ({ run: u.run, method: u.method, fallback: u.counts.fallback }));
}

/** The analysis with a fallback note when its table shows such a run (or its reports). */
export function withRerankFallbackNote(
  analysis: Analysis,
  fallbacks: readonly RerankFallback[],
): Analysis {
  if (!analysis.table || fallbacks.length === 0) return analysis;
  const labels = new Set(analysis.table.rows.map((r) => r.label));
  const shown = fallbacks.filter((f) => labels.has(f.run) || labels.has(`rag-${f.run}`));
  if (shown.length === 0) return analysis;
  const note = `reranked without log-probabilities (the endpoint returned none; ordered by the ` +
    `generated text instead): ${
      shown.map((f) =>
        `${f.run} (${f.method}, ${f.fallback} ${
          f.method === "first-token" ? "window(s)" : "comparison(s)"
        })`
      ).join("; ")
    }`;
  return {
    ...analysis,
    table: { ...analysis.table, notes: [...(analysis.table.notes ?? []), note] },
  };
}
