import assert from "node:assert/strict";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { importBatch, openCallCache } from "@lib/llm/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { exportExperimentBatch } from "@lib/cli/commands/_export_experiment.ts";
import { startOpenAiServer } from "../support/openai_server.ts";
import { testConfig } from "../pipeline/_config.ts";
import { tinyWorkspaceDir } from "../pipeline/_tiny.ts";
import { methodReply, promptOf } from "./_method_replies.ts";

/**
 * Answers a Batch input file as a Batch endpoint would: each line's body goes to a
 * loopback endpoint with the same rule as the online server, and its response body
 * (with log-probabilities when asked) is written as a Batch output line.
 */
async function answerBatch(jsonl: string, endpoint: string): Promise<string> {
  const out: string[] = [];
  for (const [i, line] of jsonl.trim().split("\n").entries()) {
    const { custom_id, body } = JSON.parse(line);
    const res = await fetch(`${endpoint}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    out.push(JSON.stringify({
      id: `batch_req_${i}`,
      custom_id,
      response: { status_code: res.status, body: await res.json() },
      error: null,
    }));
  }
  return out.join("\n") + "\n";
}

async function measures(dir: string) {
  const ws = await openWorkspace(dir);
  try {
    return await ws.query<Record<string, unknown>>(
      "SELECT * EXCLUDE (created_at) FROM measures ORDER BY ALL",
    ).catch(() => ws.query<Record<string, unknown>>("SELECT * FROM measures ORDER BY ALL"));
  } finally {
    ws.close();
  }
}

Deno.test({
  name: "batch export of every method's model stages: rounds until nothing is left, then zero calls and the online measures",
  sanitizeResources: false,
  fn: async () => {
    await using server = startOpenAiServer({ chat: methodReply });
    await using endpoint = startOpenAiServer({ chat: methodReply });
    const env = {
      OPENAI_BASE_URL: server.url,
      CRUX_GENERATOR_MODEL: "gen-model",
      CRUX_JUDGE_MODEL: "judge-model",
    };
    const fields = {
      backend: "openai",
      llm: { concurrency: 4 },
      construct: { questions: 4 },
      nuggets: {},
      keypoints: {},
      subq: { n: 4, variants: ["query"] },
      compare: { variance: { samples: 2 } },
    };
    const batchDir = await tinyWorkspaceDir();
    const onlineDir = await tinyWorkspaceDir();
    try {
      const config = testConfig({ workspace: batchDir, ...fields });
      const rounds: number[] = [];
      const stagesPerRound: string[][] = [];
      const exportedKeys: { kind: string; key: string }[] = [];
      for (let round = 0; round < 20; round++) {
        const seen = new Set<string>();
        const t0 = Date.now();
        const r = await exportExperimentBatch(config, { env, until: "measure", onEvent: (e) => seen.add(e.stage + ": " + e.message.slice(0, 60)) });
        stagesPerRound.push([...seen]);
        if (r.exported === 0) {
          assert.equal(r.stoppedBy, undefined, "the last export runs every stage through");
          break;
        }
        rounds.push(r.exported);
        const kinds: Record<string, number> = {};
        for (const line of r.jsonl.trim().split("\n")) {
          const b = JSON.parse(line).body;
          const k = promptOf(b) + (b.temperature ? `@t${b.temperature}` : "") + (b.logprobs ? "+lp" : "");
          kinds[k] = (kinds[k] ?? 0) + 1;
          exportedKeys.push({ kind: k, key: b.messages.at(-1).content });
        }
        console.log(round, Date.now() - t0, kinds);
        const opened = await openCallCache(batchDir);
        try {
          const imported = await importBatch(await answerBatch(r.jsonl, endpoint.url), opened.cache, { file: "out.jsonl" });
          assert.deepEqual(imported, { ok: r.exported, failed: 0, unchanged: 0 });
        } finally {
          await opened.close();
        }
      }
      console.log(rounds);
      assert.equal(server.requests, 0, "exporting sends nothing");
      let t0 = Date.now();
      const run = await runCruxExperiment(config, { env, until: "measure" });
      console.log("rerun", Date.now() - t0); t0 = Date.now();
      console.log(run.stages.ran);
      assert.equal(server.requests, 0, "after the imports the run makes no model call");
      await runCruxExperiment(testConfig({ workspace: onlineDir, ...fields }), { env, until: "measure" });
      console.log("online", Date.now() - t0);
      const total = rounds.reduce((a, b) => a + b, 0);
      console.log(server.requests, total);
      const extra: Record<string, number> = {};
      for (const e of exportedKeys) if (!server.counts.has(e.key)) extra[e.kind] = (extra[e.kind] ?? 0) + 1;
      for (const e of exportedKeys) if (!server.counts.has(e.key)) console.log("EXTRA", JSON.stringify(e.key.slice(-400)));
      console.log("extra", extra, [...server.counts.values()].filter((c) => c > 1).length);
      const [viaBatch, online] = [await measures(batchDir), await measures(onlineDir)];
      console.log(viaBatch.length, new Set(viaBatch.map(r=>r.method)));
      assert.deepEqual(viaBatch, online);
    } finally {
      await Deno.remove(batchDir, { recursive: true });
      await Deno.remove(onlineDir, { recursive: true });
    }
  },
});
