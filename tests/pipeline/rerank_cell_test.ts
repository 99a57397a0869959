import assert from "node:assert/strict";
import { openWorkspace, readRerankUsage } from "@lib/store/mod.ts";
import type { RerankSummary } from "@lib/construct/mod.ts";
import { recordRerankCell } from "@lib/methods/crux/rerank_cell.ts";
import { parseExperimentConfig } from "@lib/experiment/mod.ts";

Deno.test("recordRerankCell: cost from grid.prices per million tokens, stand-ins at 0, unknown tokens unpriced", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const config = parseExperimentConfig(
      JSON.stringify({
        name: "g",
        backend: "openai",
        grid: {
          rerankers: [{ name: "rankgpt", method: "listwise" }, { method: "lexical" }, {
            method: "endpoint",
          }],
          prices: { "gpt-x": { input: 0.15, output: 0.6 } },
        },
      }),
      { file: "/cfg/g.json", root: "/r" },
    );
    const [listwise, lexical, endpoint] = config.rerank!;
    const summary = (u: Partial<RerankSummary["usage"]>): RerankSummary => ({
      run: "",
      written: 10,
      skipped: false,
      usage: {
        calls: 0,
        embedded: 0,
        cached: 0,
        failed: 0,
        promptTokens: 0,
        completionTokens: 0,
        ...u,
      },
      counts: { calls: 4 },
    });
    await recordRerankCell(
      ws,
      config,
      listwise,
      summary({ calls: 4, promptTokens: 20_000, completionTokens: 1_000 }),
      { wallMs: 1200, model: "gpt-x" },
    );
    await recordRerankCell(ws, config, lexical, summary({}), { wallMs: 15, model: null });
    await recordRerankCell(
      ws,
      config,
      endpoint,
      summary({ calls: 1, promptTokens: null, completionTokens: null }),
      { wallMs: 80, model: "gpt-x" },
    );
    // A run found already stored keeps its earlier record.
    await recordRerankCell(ws, config, lexical, { ...summary({}), skipped: true }, {
      wallMs: 1,
      model: null,
    });
    const rows = await readRerankUsage(ws);
    assert.deepEqual(
      rows.map((r) => [r.run, r.reranker, r.calls, r.costUsd, r.wallMs, r.offline]),
      [
        ["bm25+endpoint", "endpoint", 1, null, 80, false],
        ["bm25+lexical", "lexical", 0, 0, 15, true],
        // 20000 * 0.15 / 1e6 + 1000 * 0.6 / 1e6 = 0.003 + 0.0006
        ["bm25+rankgpt", "rankgpt", 4, 0.0036, 1200, false],
      ],
    );
    const info = await ws.query<{ run: string; kind: string; note: string | null }>(
      `SELECT run, kind, json_extract_string(params, '$.standIn') AS note FROM run_info ORDER BY run`,
    );
    assert.deepEqual(info.map((i) => [i.run, i.kind, i.note !== null]), [
      ["bm25+endpoint", "endpoint", false],
      ["bm25+lexical", "lexical", true],
      ["bm25+rankgpt", "listwise", false],
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
