// Usage and cost of the cached calls per model and template, for `crux llm stats`.

import type { CallStatsRow } from "./call_cache.ts";
import type { ModelPrice } from "./llm_config.ts";

/** Usage and cost of one model and step (template). */
export interface UsageSummary {
  model: string;
  /** Template `id@version` (the step), `""` for calls without a template. */
  template: string;
  /** Stored calls (distinct requests). */
  calls: number;
  ok: number;
  unparsed: number;
  failed: number;
  /** Exported to a batch file and not yet imported. */
  pending: number;
  /** Requests answered from the cache instead of HTTP. */
  hits: number;
  /** HTTP attempts, retries included. */
  attempts: number;
  promptTokens: number;
  completionTokens: number;
  /** US dollars, `null` when the model has no price. */
  costUsd: number | null;
}

/**
 * Sums stored-call statistics per model and template and prices them. Pure.
 *
 * @param rows Rows of `CallCache.stats()`.
 * @param prices Model -> US dollars per million input/output tokens. Default none.
 * @returns One summary per (model, template), in the order first seen.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarizeUsage } from "@lib/llm/mod.ts";
 * import { openCallCache } from "@lib/llm/mod.ts";
 * const { cache, close } = await openCallCache(await Deno.makeTempDir());
 * const rows = summarizeUsage(await cache.stats(), { "gpt-4o-mini": { input: 0.15, output: 0.6 } });
 * assert.equal(rows.length, 0); // a new cache holds no calls; one row per model otherwise, with `costUsd`
 * await close();
 * ```
 */
export function summarizeUsage(
  rows: readonly CallStatsRow[],
  prices: Readonly<Record<string, ModelPrice>> = {},
): UsageSummary[] {
  const out = new Map<string, UsageSummary>();
  for (const r of rows) {
    const k = `${r.model}\u0000${r.template}`;
    let s = out.get(k);
    if (!s) {
      s = {
        model: r.model,
        template: r.template,
        calls: 0,
        ok: 0,
        unparsed: 0,
        failed: 0,
        pending: 0,
        hits: r.hits,
        attempts: 0,
        promptTokens: 0,
        completionTokens: 0,
        costUsd: null,
      };
      out.set(k, s);
    }
    s.calls += r.calls;
    s[r.status] += r.calls;
    s.attempts += r.attempts;
    s.promptTokens += r.promptTokens;
    s.completionTokens += r.completionTokens;
  }
  for (const s of out.values()) {
    const p = prices[s.model];
    s.costUsd = p ? (s.promptTokens * p.input + s.completionTokens * p.output) / 1e6 : null;
  }
  return [...out.values()];
}
