import assert from "node:assert/strict";
import { join } from "node:path";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { methodStages } from "@lib/methods/mod.ts";
import { runStages } from "@lib/pipeline/mod.ts";
import { SUBQ_STAGES } from "@lib/methods/subq/stages.ts";
import { extractiveGenerator, type Generator } from "@lib/llm/mod.ts";
import { failedGenerations, openWorkspace } from "@lib/store/mod.ts";
import { testConfig } from "../pipeline/_config.ts";
import { generateCoreVariants } from "@lib/subq/core_variants.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test({
  name:
    "core variants: a report whose model call failed is not stored, its topic is recorded as failed and told",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-core-variants-" });
    try {
      await runCruxExperiment(
        testConfig({
          workspace: dir,
          dataset: { source: "sample", dir: "datasets/sample" },
          retrieve: [{ name: "bm25", k: 100 }],
        }),
        { until: "generate" },
      );
      const ws = await openWorkspace(dir);
      try {
        const specs = await methodStages(
          "subq",
          SUBQ_STAGES.parse({ n: 4, variants: [] }, join(ROOT, "x.json")),
          {
            backend: "offline",
            answerRuns: [],
            answerStages: [],
            dataStages: [],
            judgeStages: [],
            outDir: "unused",
            configFile: join(ROOT, "x.json"),
          },
        );
        const typing = ["judge:subq-decompose", "judge:subq-classify"];
        await runStages(ws, specs.filter((s) => typing.includes(s.id)), { order: ["judge"] });
        const topics = (await ws.query<{ t: string }>(
          "SELECT DISTINCT topic_id AS t FROM subq_questions WHERE type = 'core' ORDER BY 1",
        )).map((r) => r.t);
        assert.ok(topics.length >= 2, `topics with core sub-questions: ${topics}`);
        // A generator whose call fails for the first topic's request.
        const firstRequest = (await ws.query<{ r: string }>(
          "SELECT request AS r FROM topics WHERE topic_id = $1",
          [topics[0]],
        ))[0].r;
        const inner = extractiveGenerator();
        const flaky: Generator = {
          name: "flaky",
          generate: (input, o) =>
            input.request.startsWith(firstRequest)
              ? Promise.resolve({
                text: "",
                tokens: 0,
                status: "failed",
                backend: "flaky",
                error: "HTTP 503",
              })
              : inner.generate(input, o),
        };
        const told: { run: string; topicId: string; error: string }[] = [];
        await generateCoreVariants(ws, {
          generator: flaky,
          variants: ["query"],
          onFailure: (f) => told.push(f),
        });
        assert.deepEqual(told, [{ run: "subq-core-query", topicId: topics[0], error: "HTTP 503" }]);
        const stored = (await ws.query<{ t: string }>(
          "SELECT topic_id AS t FROM generations WHERE run = 'subq-core-query' ORDER BY 1",
        )).map((r) => r.t);
        assert.deepEqual(stored, topics.slice(1));
        const ranked = await ws.query<{ n: number }>(
          "SELECT count(*)::INTEGER AS n FROM runs WHERE run = 'subq-core-query' AND topic_id = $1",
          [topics[0]],
        );
        assert.deepEqual(ranked, [{ n: 0 }]);
        assert.deepEqual(await failedGenerations(ws, "subq-core-query"), [topics[0]]);
      } finally {
        ws.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
