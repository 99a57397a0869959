// Private to `@lib/analysis`: the note naming runs whose report contexts lacked passages.
import {
  type ContextGap,
  readContextGaps,
  readRunProvenance,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import type { Analysis } from "./types.ts";

/** A generated run with incomplete contexts: its context run and the topics affected. */
export interface RunGaps {
  /** The generated run, e.g. `rag-bm25`. */
  run: string;
  /** The retrieval run its contexts came from, e.g. `bm25`. */
  contextRun?: string;
  /** Topics with reports of the run. */
  topics: number;
  gaps: readonly ContextGap[];
}

/** The note for the runs among `runs` that a table shows (by row label), or undefined. */
export function contextGapNote(
  labels: ReadonlySet<string>,
  runs: readonly RunGaps[],
): string | undefined {
  const shown = runs.filter((r) =>
    labels.has(r.run) || (r.contextRun !== undefined && labels.has(r.contextRun))
  );
  if (shown.length === 0) return undefined;
  const parts = shown.map((r) => {
    const missing = r.gaps.reduce((s, g) => s + g.missing.length, 0);
    const filled = r.gaps.some((g) => g.filled.length);
    return `${r.run}${r.contextRun ? ` (from ${r.contextRun})` : ""}: ${r.gaps.length} of ` +
      `${r.topics} topics, ${missing} passage(s) without text ` +
      (filled ? "replaced from lower ranks" : "left out, the shorter context kept");
  });
  return `incomplete report contexts (retrieved passages with no text in the workspace): ${
    parts.join("; ")
  }`;
}

/** The analysis with the gap note added to its table's notes when the table shows an affected run. */
export function withContextGapNote(analysis: Analysis, runs: readonly RunGaps[]): Analysis {
  if (!analysis.table || runs.length === 0) return analysis;
  const labels = new Set(analysis.table.rows.map((r) => r.label));
  const note = contextGapNote(labels, runs);
  if (!note) return analysis;
  return {
    ...analysis,
    table: { ...analysis.table, notes: [...(analysis.table.notes ?? []), note] },
  };
}

/** Every generated run with incomplete contexts, with its context run and topic count. */
export async function runGaps(ws: WorkspaceLike): Promise<RunGaps[]> {
  const gaps = await readContextGaps(ws);
  if (gaps.size === 0) return [];
  const runs = new Map((await readRunProvenance(ws)).map((r) => [r.run, r]));
  return [...gaps].map(([run, g]) => ({
    run,
    contextRun: runs.get(run)?.sources[0],
    topics: runs.get(run)?.topics ?? g.length,
    gaps: g,
  }));
}
