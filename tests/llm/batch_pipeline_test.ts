import assert from "node:assert/strict";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { importBatch, openCallCache } from "@lib/llm/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { exportExperimentBatch } from "@lib/cli/commands/_export_experiment.ts";
import { type ServerChatRequest, startOpenAiServer } from "../support/openai_server.ts";
import { fakeReply } from "../support/fake_model.ts";
import { testConfig } from "../pipeline/_config.ts";
import { tinyWorkspaceDir } from "../pipeline/_tiny.ts";

/** Answers a Batch input file as a Batch endpoint would, with the fake model. */
function answerBatch(jsonl: string): string {
  return jsonl.trim().split("\n").map((line, i) => {
    const { custom_id, body } = JSON.parse(line);
    const content = fakeReply(body as ServerChatRequest);
    return JSON.stringify({
      id: `batch_req_${i}`,
      custom_id,
      response: {
        status_code: 200,
        body: {
          choices: [{ index: 0, message: { role: "assistant", content } }],
          usage: { prompt_tokens: 10, completion_tokens: 3 },
        },
      },
      error: null,
    });
  }).join("\n") + "\n";
}

/** The rows the chain stores, without run-specific columns, for comparison. */
async function results(dir: string) {
  const ws = await openWorkspace(dir);
  try {
    const q = (sql: string) => ws.query<Record<string, unknown>>(sql);
    return {
      passages: await q("SELECT topic_id, doc_id, text FROM passages ORDER BY ALL"),
      requests: await q("SELECT topic_id, request FROM topics ORDER BY ALL"),
      questions: await q("SELECT topic_id, ordinal, text FROM questions ORDER BY ALL"),
      ratings: await q("SELECT * EXCLUDE (created_at) FROM ratings ORDER BY ALL").catch(() =>
        q("SELECT * FROM ratings ORDER BY ALL")
      ),
      generations: await q("SELECT run, topic_id, text FROM generations ORDER BY ALL"),
      measures: await q(
        "SELECT run, topic_id, measure, judge, value FROM measures ORDER BY ALL",
      ),
    };
  } finally {
    ws.close();
  }
}

Deno.test({
  name:
    "batch export of the configured pipeline: export, answer, import until nothing is left; the run then makes zero calls and equals the online run",
  sanitizeResources: false,
  fn: async () => {
    await using server = startOpenAiServer({ chat: (req) => ({ content: fakeReply(req) }) });
    const env = {
      OPENAI_BASE_URL: server.url,
      CRUX_GENERATOR_MODEL: "gen-model",
      CRUX_JUDGE_MODEL: "judge-model",
    };
    const fields = { backend: "openai", llm: { concurrency: 4 }, construct: { questions: 4 } };
    const batchDir = await tinyWorkspaceDir();
    const onlineDir = await tinyWorkspaceDir();
    try {
      const config = testConfig({ workspace: batchDir, ...fields });
      const rounds: number[] = [];
      for (let round = 0; round < 10; round++) {
        const r = await exportExperimentBatch(config, { env, until: "measure" });
        // A stage whose inputs wait for exported answers stops the run on the copy.
        if (r.exported === 0) {
          assert.equal(r.stoppedBy, undefined, "the last export runs every stage through");
          break;
        }
        rounds.push(r.exported);
        // Every line is an OpenAI Batch request (the format vLLM's batch runner reads too).
        for (const line of r.jsonl.trim().split("\n")) {
          const o = JSON.parse(line);
          assert.deepEqual(Object.keys(o), ["custom_id", "method", "url", "body"]);
          assert.equal(o.method, "POST");
          assert.equal(o.url, "/v1/chat/completions");
          assert.ok(["gen-model", "judge-model"].includes(o.body.model));
        }
        const opened = await openCallCache(batchDir);
        try {
          const imported = await importBatch(answerBatch(r.jsonl), opened.cache, {
            file: "out.jsonl",
          });
          assert.deepEqual(imported, { ok: r.exported, failed: 0, unchanged: 0 });
        } finally {
          await opened.close();
        }
      }
      assert.equal(server.requests, 0, "exporting sends nothing");
      assert.ok(rounds.length >= 2, `stages wait for earlier answers: rounds ${rounds}`);
      const total = rounds.reduce((a, b) => a + b, 0);

      const run = await runCruxExperiment(config, { env, until: "measure" });
      assert.equal(server.requests, 0, "after the imports the run makes no model call");
      assert.ok(run.stages.ran.length > 0);

      await runCruxExperiment(testConfig({ workspace: onlineDir, ...fields }), {
        env,
        until: "measure",
      });
      assert.equal(server.requests, total, "the online run sends what the batches held");
      const [viaBatch, online] = [await results(batchDir), await results(onlineDir)];
      assert.ok(viaBatch.questions.length > 0 && viaBatch.measures.length > 0);
      assert.deepEqual(viaBatch, online);
    } finally {
      await Deno.remove(batchDir, { recursive: true });
      await Deno.remove(onlineDir, { recursive: true });
    }
  },
});
