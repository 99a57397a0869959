import assert from "node:assert/strict";
import { openWorkspace } from "@lib/store/mod.ts";
import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { rerankRun } from "./rerank_run.ts";

Deno.test({
  name: "rerankRun: MMR over TF-IDF pushes a duplicate below a novel passage; re-runs skip",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const ws = await openWorkspace(dir);
    try {
      await ws.upsert("passages", [
        { passageId: "t:0#0", topicId: "t", docId: "t:0", text: "storm floods the coast" },
        { passageId: "t:0#1", topicId: "t", docId: "t:0", text: "storm floods the coast" },
        { passageId: "t:1#2", topicId: "t", docId: "t:1", text: "mayor wins the vote" },
      ]);
      await ws.insert("runs", [
        { run: "bm25", topicId: "t", docId: "t:0#0", rank: 1, score: 3 },
        { run: "bm25", topicId: "t", docId: "t:0#1", rank: 2, score: 2 },
        { run: "bm25", topicId: "t", docId: "t:1#2", rank: 3, score: 1 },
      ]);
      // Relevance 1, 0.5, 0 after min-max. Step 2: the duplicate scores 0.5*0.5 - 0.5*1 = -0.25,
      // the novel passage 0.5*0 - 0.5*0 = 0, so it comes second.
      const s = await rerankRun(ws, { name: "mmr", from: "bm25", method: "mmr", lambda: 0.5 });
      // TF-IDF MMR calls no model.
      assert.deepEqual(s, {
        run: "mmr",
        written: 3,
        skipped: false,
        usage: {
          calls: 0,
          embedded: 0,
          cached: 0,
          failed: 0,
          promptTokens: 0,
          completionTokens: 0,
        },
        counts: {},
      });
      const rows = await ws.runRows("mmr");
      assert.deepEqual(rows.map((r) => [r.docId, r.rank, r.score]), [["t:0#0", 1, 3], [
        "t:1#2",
        2,
        2,
      ], ["t:0#1", 3, 1]]);
      // lambda 1 keeps the first-stage order.
      await rerankRun(ws, { name: "rel", from: "bm25", method: "mmr", lambda: 1 });
      assert.deepEqual((await ws.runRows("rel")).map((r) => r.docId), ["t:0#0", "t:0#1", "t:1#2"]);
      assert.deepEqual(await rerankRun(ws, { name: "mmr", from: "bm25", method: "mmr" }), {
        run: "mmr",
        written: 0,
        skipped: true,
        usage: {
          calls: 0,
          embedded: 0,
          cached: 0,
          failed: 0,
          promptTokens: 0,
          completionTokens: 0,
        },
        counts: {},
      });
      await assert.rejects(
        () => rerankRun(ws, { name: "x", from: "dense", method: "mmr" }),
        /Cannot rerank run "dense" into "x": the workspace has no run "dense"; retrieve it first/,
      );
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "rerankRun: a cross-encoder endpoint reorders the top depth; one call per topic, cached",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const asked = new Map<string, number>();
    await using server = startOpenAiServer({
      score: (query, doc) => {
        asked.set(`${query}|${doc}`, (asked.get(`${query}|${doc}`) ?? 0) + 1);
        const q = query.split(" ");
        return doc.split(" ").filter((w) => q.includes(w)).length / q.length;
      },
    });
    const dir = await Deno.makeTempDir();
    const ws = await openWorkspace(dir);
    try {
      await ws.upsert("topics", [
        { topicId: "t", request: "storm coast" },
        { topicId: "u", request: "" },
      ]);
      await ws.upsert("passages", [
        { passageId: "t:0#0", topicId: "t", docId: "t:0", text: "mayor wins the vote" },
        { passageId: "t:0#1", topicId: "t", docId: "t:0", text: "storm hits" },
        { passageId: "t:1#2", topicId: "t", docId: "t:1", text: "storm floods the coast" },
        { passageId: "u:0#0", topicId: "u", docId: "u:0", text: "no request here" },
      ]);
      await ws.insert("runs", [
        { run: "bm25", topicId: "t", docId: "t:0#0", rank: 1, score: 3 },
        { run: "bm25", topicId: "t", docId: "t:0#1", rank: 2, score: 2 },
        { run: "bm25", topicId: "t", docId: "t:1#2", rank: 3, score: 1 },
        { run: "bm25", topicId: "u", docId: "u:0#0", rank: 1, score: 1 },
      ]);
      const client = async () =>
        new LlmClient({
          baseUrl: server.url,
          model: "ce-m",
          cache: await CallCache.open(ws.connection),
        });
      const cfg = { name: "ce", from: "bm25", method: "endpoint", depth: 2 } as const;
      await assert.rejects(
        () => rerankRun(ws, cfg),
        /Cannot rerank "bm25" into "ce" with method "endpoint": no reranker client/,
      );
      const s = await rerankRun(ws, cfg, { client: await client() });
      // One /rerank call (topic u has no request); the endpoint reports no tokens.
      assert.deepEqual(s, {
        run: "ce",
        written: 3,
        skipped: false,
        usage: {
          calls: 1,
          embedded: 0,
          cached: 0,
          failed: 0,
          promptTokens: null,
          completionTokens: null,
        },
        counts: {},
      });
      // Depth 2: "mayor wins the vote" scores 0/2, "storm hits" 1/2; the third passage is cut.
      // Topic u has no request: first-stage order, no call.
      const rows = await ws.runRows("ce");
      assert.deepEqual(rows.map((r) => [r.topicId, r.docId, r.rank, r.score]), [
        ["t", "t:0#1", 1, 0.5],
        ["t", "t:0#0", 2, 0],
        ["u", "u:0#0", 1, 1],
      ]);
      assert.equal(server.log.filter((l) => l.path === "/v1/rerank").length, 1);
      assert.deepEqual([...asked.values()], [1, 1]);
      // Stored: skipped without a call. Deleted and recomputed: answered from the cache.
      assert.equal((await rerankRun(ws, cfg, { client: await client() })).skipped, true);
      await ws.exec(`DELETE FROM runs WHERE run = 'ce'`);
      const again = await rerankRun(ws, cfg, { client: await client() });
      assert.equal(again.written, 3);
      assert.deepEqual(await ws.runRows("ce"), rows);
      assert.equal(server.requests, 1);
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "rerankRun: an endpoint answering like a chat model names stage, run, URL and shape; earlier runs stay",
  sanitizeResources: false,
  fn: async () => {
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () =>
        Response.json({
          choices: [{ message: { role: "assistant", content: "0.9" } }],
          usage: { prompt_tokens: 3, completion_tokens: 1 },
        }),
    );
    const dir = await Deno.makeTempDir();
    const ws = await openWorkspace(dir);
    try {
      await ws.upsert("topics", [{ topicId: "t", request: "storm coast" }]);
      await ws.upsert("passages", [
        { passageId: "t:0#0", topicId: "t", docId: "t:0", text: "storm hits" },
      ]);
      await ws.insert("runs", [{ run: "bm25", topicId: "t", docId: "t:0#0", rank: 1, score: 3 }]);
      const url = `http://127.0.0.1:${server.addr.port}/v1`;
      const client = new LlmClient({
        baseUrl: url,
        model: "ce-m",
        maxRetries: 0,
        cache: await CallCache.open(ws.connection),
      });
      const cfg = { name: "ce", from: "bm25", method: "endpoint", depth: 2 } as const;
      await assert.rejects(
        () => rerankRun(ws, cfg, { client }),
        (e: Error) => {
          assert.match(e.message, /^Stage rerank, run "ce" \(from "bm25"\), topic "t": /);
          assert.match(
            e.message,
            new RegExp(`Unexpected answer from ${url}/rerank: expected \\{"results"`),
          );
          assert.match(
            e.message,
            /got an object with keys choices, usage \(it looks like a chat completion\)/,
          );
          return true;
        },
      );
      assert.equal((await ws.runRows("bm25")).length, 1, "the first-stage run is kept");
      assert.deepEqual(await ws.runRows("ce"), []);
    } finally {
      ws.close();
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
