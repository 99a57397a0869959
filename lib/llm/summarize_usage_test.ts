import assert from "node:assert/strict";
import { summarizeUsage } from "./summarize_usage.ts";
import type { CallStatsRow } from "./call_cache.ts";

const row = (over: Partial<CallStatsRow>): CallStatsRow => ({
  model: "m",
  template: "answerability@1",
  status: "ok",
  calls: 0,
  attempts: 0,
  promptTokens: 0,
  completionTokens: 0,
  latencyMs: 0,
  hits: 5,
  ...over,
});

Deno.test("summarizeUsage sums statuses per model and step and prices tokens", () => {
  const out = summarizeUsage([
    row({ status: "ok", calls: 90, attempts: 95, promptTokens: 1_000_000, completionTokens: 2000 }),
    row({ status: "unparsed", calls: 5, attempts: 5, promptTokens: 50_000, completionTokens: 100 }),
    row({ status: "failed", calls: 5, attempts: 15 }),
    row({ model: "free", template: "", status: "pending", calls: 3, hits: 0 }),
  ], { m: { input: 0.5, output: 2 } });
  assert.deepEqual(out, [
    {
      model: "m",
      template: "answerability@1",
      calls: 100,
      ok: 90,
      unparsed: 5,
      failed: 5,
      pending: 0,
      hits: 5,
      attempts: 115,
      promptTokens: 1_050_000,
      completionTokens: 2100,
      costUsd: (1_050_000 * 0.5 + 2100 * 2) / 1e6, // 0.5292
    },
    {
      model: "free",
      template: "",
      calls: 3,
      ok: 0,
      unparsed: 0,
      failed: 0,
      pending: 3,
      hits: 0,
      attempts: 0,
      promptTokens: 0,
      completionTokens: 0,
      costUsd: null,
    },
  ]);
  assert.equal(out[0].costUsd!.toFixed(4), "0.5292");
});
