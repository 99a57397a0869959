import assert from "node:assert/strict";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { loadExperimentConfig } from "@lib/experiment/mod.ts";
import { runCruxExperiment } from "./run_crux_experiment.ts";

const root = new URL("../../", import.meta.url).pathname;

Deno.test({
  name:
    "runCruxExperiment: the online config (chat, embeddings, rerank) against a local endpoint; a re-run makes no call",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const embedded = new Map<string, number>();
    const scored = new Map<string, number>();
    const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    await using server = startOpenAiServer({
      embed: (text) => {
        count(embedded, text);
        const v = new Array(8).fill(0);
        for (const w of text.toLowerCase().split(/\W+/)) if (w) v[w.length % 8] += 1;
        return v;
      },
      score: (query, doc) => {
        count(scored, `${query}\u0000${doc}`);
        const q = new Set(query.toLowerCase().split(/\W+/));
        return doc.toLowerCase().split(/\W+/).filter((w) => q.has(w)).length / (1 + doc.length);
      },
      chat: (req) => {
        const prompt = req.messages.at(-1)!.content;
        if (req.model === "judge-m") return { content: String(prompt.length % 6) };
        return {
          content: "The storm flooded the coast on Monday. Officials ordered an evacuation.",
        };
      },
    });
    const dir = await Deno.makeTempDir({ prefix: "crux-online-" });
    try {
      const config = {
        ...(await loadExperimentConfig(`${root}notebooks/configs/online.json`, { root })),
        workspace: dir,
        retrieve: [
          { name: "bm25", k: 30 },
          { name: "dense-openai", kind: "dense" as const, embedder: "openai" as const, k: 30 },
        ],
        rerank: [{ name: "bm25-ce", from: "bm25", method: "endpoint" as const, depth: 10 }],
        analysis: { correlation: { samples: 2, size: 5, depth: 10 } },
      };
      const env = {
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: "test-key",
        CRUX_GENERATOR_MODEL: "gen-m",
        CRUX_JUDGE_MODEL: "judge-m",
        CRUX_EMBEDDER_MODEL: "emb-m",
        CRUX_RERANKER_MODEL: "ce-m",
      };
      const first = await runCruxExperiment(config, { env });
      const calls = server.requests;
      assert.ok(calls > 0);
      // Every distinct request was sent once: chat prompts, embedded texts, (query, passage) pairs.
      assert.ok([...server.counts.values()].every((n) => n === 1));
      assert.ok([...embedded.values()].every((n) => n === 1));
      assert.ok(scored.size > 0 && [...scored.values()].every((n) => n === 1));
      const ws = await openWorkspace(dir, { readOnly: true });
      const kept = new Set((await ws.runRows("bm25")).map((r) => r.topicId));
      const topics = kept.size;
      const requests = (await ws.topics()).filter((t) => kept.has(t.topicId)).map((t) =>
        t.request!
      );
      const texts = new Set([...(await ws.passages()).map((p) => p.text), ...requests]);
      const denseRows = await ws.runRows("dense-openai");
      const ceRows = await ws.runRows("bm25-ce");
      ws.close();
      // One rerank call per topic over its top 10; embeddings: distinct passages + requests.
      assert.equal(server.log.filter((l) => l.path === "/v1/rerank").length, topics);
      assert.equal(scored.size, topics * 10);
      assert.deepEqual([...embedded.keys()].sort(), [...texts].sort());
      assert.equal(denseRows.length, topics * 30);
      const main = first.analyses!.analyses.find((a) => a.name === "main_table")!;
      assert.equal(main.table!.caption, "Retrieval contexts and reports under the oracle budget");
      assert.equal(
        main.table!.notes![0],
        "backends: judge-m judge, ce-m reranker, emb-m embedder, gen-m generator",
      );
      assert.deepEqual(main.table!.rows.map((r) => r.label), [
        "bm25",
        "dense-openai",
        "bm25-ce",
        "Direct (no context)",
        "Oracle context P*",
        "Oracle result",
        "Kendall τ (context vs report)",
      ]);
      // Unchanged: every stage is up to date, nothing runs, no call is made.
      const second = await runCruxExperiment(config, { env });
      assert.equal(server.requests, calls);
      assert.deepEqual(second.stages.ran, []);
      assert.equal(second.analyses, undefined);
      // Forced from retrieval on: recomputed from the call cache, still no call, same tables.
      const rw = await openWorkspace(dir);
      await rw.exec(`DELETE FROM runs WHERE run IN ('dense-openai', 'bm25-ce')`);
      rw.close();
      const third = await runCruxExperiment(config, { env, from: "retrieve" });
      assert.ok(third.stages.ran.includes("retrieve:dense-openai"));
      assert.ok(third.stages.ran.includes("rerank:bm25-ce"));
      assert.deepEqual(third.stages.fresh, ["dataset", "construct", "select"]);
      assert.equal(server.requests, calls);
      assert.deepEqual(
        third.analyses!.analyses.map((a) => a.table?.rows),
        first.analyses!.analyses.map((a) => a.table?.rows),
      );
      const after = await openWorkspace(dir, { readOnly: true });
      assert.deepEqual(await after.runRows("dense-openai"), denseRows);
      assert.deepEqual(await after.runRows("bm25-ce"), ceRows);
      after.close();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
