import assert from "node:assert/strict";
import { startOpenAiServer } from "../support/openai_server.ts";
import { openWorkspace, readRerankUsage } from "@lib/store/mod.ts";
import { parseExperimentConfig, runCruxExperiment } from "@lib/experiment/mod.ts";
import type { GridRow } from "@lib/analysis/grid_table.ts";

const root = new URL("../../", import.meta.url).pathname;

Deno.test({
  name:
    "runCruxExperiment: an online grid records calls, tokens and cost per cell; a re-run calls nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = startOpenAiServer({
      score: (query, doc) => {
        const q = new Set(query.toLowerCase().split(/\W+/));
        return doc.toLowerCase().split(/\W+/).filter((w) => q.has(w)).length / (1 + doc.length);
      },
      chat: (req) => {
        const prompt = req.messages.at(-1)!.content;
        if (req.model === "rr-m") {
          // Pointwise grades: every reranker call reports 40 prompt and 6 completion tokens.
          return {
            content: `##final score: ${prompt.length % 4}`,
            usage: { prompt_tokens: 40, completion_tokens: 6 },
          };
        }
        if (req.model === "judge-m") return { content: String(prompt.length % 6) };
        return {
          content: "The storm flooded the coast on Monday. Officials ordered an evacuation.",
        };
      },
    });
    const dir = await Deno.makeTempDir({ prefix: "crux-grid-online-" });
    try {
      const config = parseExperimentConfig(
        JSON.stringify({
          name: "grid-online",
          workspace: dir,
          dataset: { source: "sample", dir: `${root}datasets/sample` },
          backend: "openai",
          llm: { roles: { reranker: { apiKeyEnv: "OPENAI_API_KEY" } } },
          retrieve: [{ name: "bm25", k: 20 }],
          generate: ["rag"],
          grid: {
            rerankers: [
              { name: "grader", method: "pointwise", depth: 5 },
              { name: "ce", method: "endpoint", depth: 5 },
            ],
            prices: { "rr-m": { input: 2, output: 10 } },
          },
          analysis: { correlation: { samples: 2, size: 5, depth: 10 } },
        }),
        { file: `${dir}/grid.json`, root },
      );
      const env = {
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: "test-key",
        CRUX_GENERATOR_MODEL: "gen-m",
        CRUX_JUDGE_MODEL: "judge-m",
        CRUX_EMBEDDER_MODEL: "emb-m",
        CRUX_RERANKER_MODEL: "rr-m",
      };
      const first = await runCruxExperiment(config, { env });
      const ws = await openWorkspace(dir, { readOnly: true });
      const topics = new Set((await ws.runRows("bm25")).map((r) => r.topicId)).size;
      const usage = await readRerankUsage(ws);
      ws.close();
      assert.ok(topics > 0);
      assert.deepEqual(usage.map((u) => [u.run, u.method, u.model]), [
        ["bm25+ce", "endpoint", "rr-m"],
        ["bm25+grader", "pointwise", "rr-m"],
      ]);
      const [ce, grader] = usage;
      // Pointwise: one call per passage of the top 5; tokens as the endpoint reported them;
      // cost = (40 * 2 + 6 * 10) / 1e6 dollars per call.
      assert.equal(grader.calls, topics * 5);
      assert.equal(grader.promptTokens, topics * 5 * 40);
      assert.equal(grader.completionTokens, topics * 5 * 6);
      assert.ok(Math.abs(grader.costUsd! - topics * 5 * 140 / 1e6) < 1e-12, String(grader.costUsd));
      assert.equal(grader.cached, 0);
      // /rerank: one request per topic, no token counts, so no cost.
      assert.equal(ce.calls, topics);
      assert.equal(ce.promptTokens, null);
      assert.equal(ce.costUsd, null);
      assert.equal(server.log.filter((l) => l.path === "/v1/rerank").length, topics);
      const grid = first.analyses!.analyses.find((a) => a.name === "grid_table")!;
      const rows = (grid.data as { rows: GridRow[] }).rows;
      assert.deepEqual(rows.map((r) => [r.run, r.calls]), [
        ["bm25", null],
        ["bm25+grader", topics * 5],
        ["bm25+ce", topics],
      ]);
      assert.match(
        grid.table!.notes!.join("\n"),
        /No token counts \(the endpoint reported none\) for: bm25\+ce/,
      );
      // The figure plots against cost (a cell has one).
      assert.match(JSON.stringify(grid.figure), /against cost per cell \(US dollars\)/);
      const calls = server.requests;
      const second = await runCruxExperiment(config, { env });
      assert.equal(server.requests, calls);
      assert.deepEqual(second.stages.ran, []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
