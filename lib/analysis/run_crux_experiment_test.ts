import assert from "node:assert/strict";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { loadExperimentConfig } from "./experiment_config.ts";
import { runCruxExperiment } from "./run_crux_experiment.ts";

const root = new URL("../../", import.meta.url).pathname;

Deno.test({
  name: "runCruxExperiment: the online config against a local endpoint; a re-run makes no call",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = startOpenAiServer({
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
        retrieve: [{ name: "bm25", k: 30 }],
        rerank: [],
        analysis: { correlation: { samples: 2, size: 5, depth: 10 } },
      };
      const env = {
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: "test-key",
        CRUX_GENERATOR_MODEL: "gen-m",
        CRUX_JUDGE_MODEL: "judge-m",
      };
      const first = await runCruxExperiment(config, { env });
      const calls = server.requests;
      assert.ok(calls > 0);
      // Every distinct request was sent once.
      assert.ok([...server.counts.values()].every((n) => n === 1));
      const main = first.analyses!.analyses.find((a) => a.name === "main_table")!;
      assert.equal(main.table!.caption, "Retrieval contexts and reports under the oracle budget");
      assert.equal(main.table!.notes![0], "backends: judge-m judge, gen-m generator");
      assert.deepEqual(main.table!.rows.map((r) => r.label), [
        "bm25",
        "Direct (no context)",
        "Oracle context P*",
        "Oracle result",
        "Kendall τ (context vs report)",
      ]);
      const second = await runCruxExperiment(config, { env });
      assert.equal(server.requests, calls);
      assert.deepEqual(
        second.analyses!.analyses.map((a) => a.table?.rows),
        first.analyses!.analyses.map((a) => a.table?.rows),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
