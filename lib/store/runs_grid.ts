/**
 * What each reranked run cost: model calls, tokens, wall time and price of
 * the rerank stage (`rerank_usage`), and the measures a grid of first stages
 * and rerankers is compared by.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** The rerank stage's record of one reranked run. */
export interface RerankUsageRow {
  /** The reranked run. */
  run: string;
  /** The first-stage run it reranked. */
  source: string;
  /** Reranker method (`lexical`, `mmr`, `listwise`, `setwise`, `pointwise`, `endpoint`). */
  method: string;
  /** Reranker name in a grid (the part after `+`), else the method. */
  reranker: string;
  /** Model of the reranker, or `null` for methods that call none. */
  model: string | null;
  /** True for offline stand-ins (no model). */
  offline: boolean;
  /** Model requests (chat and `/rerank`; cache hits included). */
  calls: number;
  /** Requests answered from the call cache. */
  cached: number;
  /** Texts sent to `/embeddings`. */
  embedded: number;
  /** Prompt tokens of the chat answers, `null` when the endpoint reported none. */
  promptTokens: number | null;
  completionTokens: number | null;
  /** Wall time of the stage's reranking, ms. */
  wallMs: number;
  /** US dollars from the configured prices; `null` when the model has no price. */
  costUsd: number | null;
  /** Per-method counts (repairs, comparisons, unparsed answers), as JSON. */
  counts: Record<string, number>;
}

const CREATE = `CREATE TABLE IF NOT EXISTS rerank_usage (
  run VARCHAR PRIMARY KEY, source VARCHAR, method VARCHAR, reranker VARCHAR, model VARCHAR,
  offline BOOLEAN, calls INTEGER, cached INTEGER, embedded INTEGER, prompt_tokens BIGINT,
  completion_tokens BIGINT, wall_ms DOUBLE, cost_usd DOUBLE, counts VARCHAR, recorded_at TIMESTAMP)`;

async function hasTable(ws: WorkspaceLike): Promise<boolean> {
  const rows = await ws.query<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = 'rerank_usage'`,
  );
  return rows[0].n > 0;
}

/**
 * Records (or replaces) what the rerank stage spent on one run.
 *
 * @param ws The workspace.
 * @param row The run's usage.
 * @example
 * ```ts
 * import { recordRerankUsage } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await recordRerankUsage(ws, {
 *   run: "bm25+lexical", source: "bm25", method: "lexical", reranker: "lexical", model: null,
 *   offline: true, calls: 0, cached: 0, embedded: 0, promptTokens: 0, completionTokens: 0,
 *   wallMs: 12.5, costUsd: 0, counts: {},
 * });
 * ```
 */
export async function recordRerankUsage(ws: WorkspaceLike, row: RerankUsageRow): Promise<void> {
  await ws.exec(CREATE);
  await ws.exec(
    `INSERT OR REPLACE INTO rerank_usage VALUES
       ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, now())`,
    [
      row.run,
      row.source,
      row.method,
      row.reranker,
      row.model,
      row.offline,
      row.calls,
      row.cached,
      row.embedded,
      row.promptTokens,
      row.completionTokens,
      row.wallMs,
      row.costUsd,
      JSON.stringify(row.counts),
    ],
  );
}

/**
 * Removes a run's usage record (when the stage clears the run).
 *
 * @param ws The workspace.
 * @param run The reranked run.
 * @example
 * ```ts
 * import { clearRerankUsage } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await clearRerankUsage(ws, "bm25+lexical");
 * ```
 */
export async function clearRerankUsage(ws: WorkspaceLike, run: string): Promise<void> {
  if (await hasTable(ws)) await ws.exec(`DELETE FROM rerank_usage WHERE run = $1`, [run]);
}

/**
 * The usage records of the reranked runs, in run order (none when the
 * workspace never reranked).
 *
 * @param ws The workspace.
 * @returns One row per reranked run.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRerankUsage } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * assert.deepEqual(await readRerankUsage(ws), []); // never reranked; after a rerank, one row per run
 * ```
 */
export async function readRerankUsage(ws: WorkspaceLike): Promise<RerankUsageRow[]> {
  if (!(await hasTable(ws))) return [];
  const rows = await ws.query<Record<string, unknown>>(
    `SELECT run, source, method, reranker, model, offline, calls, cached, embedded,
            prompt_tokens::DOUBLE AS "promptTokens",
            completion_tokens::DOUBLE AS "completionTokens",
            wall_ms AS "wallMs", cost_usd AS "costUsd", counts
       FROM rerank_usage ORDER BY run`,
  );
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => ({
    run: r.run as string,
    source: r.source as string,
    method: r.method as string,
    reranker: r.reranker as string,
    model: (r.model as string | null) ?? null,
    offline: r.offline as boolean,
    calls: Number(r.calls),
    cached: Number(r.cached),
    embedded: Number(r.embedded),
    promptTokens: num(r.promptTokens),
    completionTokens: num(r.completionTokens),
    wallMs: Number(r.wallMs),
    costUsd: num(r.costUsd),
    counts: JSON.parse(r.counts as string) as Record<string, number>,
  }));
}

/** A mean over topics of `measures` (`topic_id = 'all'`). */
export interface GridMeasureRow {
  run: string;
  measure: string;
  judge: string;
  source: string;
  value: number;
  topics: number;
}

/**
 * The stored means (`topic_id = 'all'`) of some runs: the retrieval measures
 * of the runs themselves and the report measures of their `rag-{run}`
 * generations, in run and measure order.
 *
 * @param ws The workspace.
 * @param runs Retrieval run names.
 * @returns Means of the runs and of `rag-{run}` (its `run` as stored).
 * @example
 * ```ts
 * import { readGridMeasures } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await readGridMeasures(ws, ["bm25", "bm25+lexical"]);
 * // [{ run: "bm25", measure: "Cov@oracle", judge: "human", source: "selection", value: 0.78, topics: 10 }, ...]
 * ```
 */
export async function readGridMeasures(
  ws: WorkspaceLike,
  runs: readonly string[],
): Promise<GridMeasureRow[]> {
  if (!runs.length) return [];
  const names = [...runs, ...runs.map((r) => `rag-${r}`)];
  const rows = await ws.query<GridMeasureRow>(
    `SELECT run, measure, judge, source, value, topics FROM measures
      WHERE topic_id = 'all' AND list_contains($1::JSON::VARCHAR[], run)
      ORDER BY run, measure, judge, source`,
    [JSON.stringify(names)],
  );
  return rows.map((r) => ({ ...r, value: Number(r.value), topics: Number(r.topics) }));
}
