/**
 * Batch files for every method's model stages: an online experiment with the
 * CRUX chain, nuggets, key points, sub-questions (with one core variant, so the
 * pairwise judge has two runs) and the comparison's judge-variance samples is
 * exported, answered and imported until an export holds nothing. The run then
 * makes no model call, and its `measures` equal those of a plain online run
 * against a server with the same rule; the batches held exactly the requests the
 * online run sends, none asked in vain.
 */
import assert from "node:assert/strict";
import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { importBatch, openCallCache } from "@lib/llm/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { exportExperimentBatch } from "@lib/cli/commands/_export_experiment.ts";
import { type ServerChatRequest, startOpenAiServer } from "../support/openai_server.ts";
import { testConfig } from "../pipeline/_config.ts";
import { tinyWorkspaceDir } from "../pipeline/_tiny.ts";
import { methodReply, promptOf } from "./_method_replies.ts";

/**
 * Answers a Batch input file as a Batch endpoint would: each line's body goes to a
 * loopback endpoint with the same rule as the online server, and its response body
 * (with log-probabilities when asked) becomes a Batch output line.
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

/** Requests of one Batch file per prompt (`@t0.7`: sampled at that temperature). */
function promptCounts(jsonl: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of jsonl.trim().split("\n")) {
    const o = JSON.parse(line);
    assert.deepEqual(Object.keys(o), ["custom_id", "method", "url", "body"]);
    assert.equal(o.url, "/v1/chat/completions");
    const body = o.body as ServerChatRequest;
    const k = promptOf(body) + (body.temperature ? `@t${body.temperature}` : "");
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

async function query(dir: string, sql: string) {
  const ws = await openWorkspace(dir);
  try {
    return await ws.query<Record<string, unknown>>(sql);
  } finally {
    ws.close();
  }
}

Deno.test({
  name:
    "batch export of every method's model stages: one round per stage depth, no request in vain, then zero calls and the online measures",
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
      const rounds: Record<string, number>[] = [];
      for (let round = 0; round < 12; round++) {
        const r = await exportExperimentBatch(config, { env, until: "measure" });
        if (r.exported === 0) {
          assert.equal(r.stoppedBy, undefined, "the last export runs every stage through");
          break;
        }
        rounds.push(promptCounts(r.jsonl));
        const opened = await openCallCache(batchDir);
        try {
          const out = await answerBatch(r.jsonl, endpoint.url);
          const imported = await importBatch(out, opened.cache, { file: "out.jsonl" });
          assert.deepEqual(imported, { ok: r.exported, failed: 0, unchanged: 0 });
        } finally {
          await opened.close();
        }
      }
      assert.equal(server.requests, 0, "exporting sends nothing");

      const run = await runCruxExperiment(config, { env, until: "measure" });
      assert.equal(server.requests, 0, "after the imports the run makes no model call");
      assert.deepEqual(run.stages.incomplete, []);

      // What the stage graph implies, from the stored data of the batch workspace.
      const one = async (sql: string) => Number(Object.values((await query(batchDir, sql))[0])[0]);
      const topics = await one("SELECT count(*) FROM topics");
      const documents = await one("SELECT count(*) FROM documents");
      const pairs = await one(
        `SELECT sum((p.n + 1) * q.n) FROM (SELECT topic_id, count(*) AS n FROM passages GROUP BY 1) p
         JOIN (SELECT topic_id, count(*) AS n FROM questions GROUP BY 1) q USING (topic_id)`,
      );
      const subquestions = await one("SELECT count(*) FROM subq_questions");
      assert.deepEqual([topics, documents, pairs, subquestions], [2, 4, 40, 8]);
      const extract = rounds[2].keypoint_extract;
      assert.deepEqual(rounds, [
        // 0. construct: each document split into passages, each topic's request and
        //    questions written (three independent steps on the dataset).
        {
          "crux:passages@t0.7": documents,
          "crux:request@t0.7": topics,
          "crux:questions@t0.7": topics,
        },
        // 1. construct: every question of a topic rated on each of its passages and on
        //    its human summary.
        { "crux:rating": pairs },
        // 2. what reads the selected passages and questions: the reports of rag-bm25,
        //    direct and oracle (5 distinct prompts), one nugget window per topic (fewer
        //    passages than the window of 10), key point extraction round 1 (one call per
        //    question and document), one decomposition per topic.
        {
          "crux:report@t0.7": 5,
          nugget_create: topics,
          keypoint_extract: extract,
          subq_decompose: topics,
        },
        // 3. what reads those answers: the reports judged against their questions (16
        //    distinct prompts), the nuggets labelled (one call per topic), extraction
        //    round 2 (every pair found points in round 1, so it is asked for overlooked
        //    ones), one typing call per sub-question.
        {
          "crux:rating": 16,
          nugget_importance: topics,
          keypoint_extract: extract,
          subq_type: subquestions,
        },
        // 4. nugget assignment of each report (7 runs x topics with nuggets), the key
        //    points merged per question, the core-variant report of each topic, and the
        //    judge-variance samples (2 samples of the report judging, temperature 0.7).
        {
          nugget_assign: 7,
          keypoint_merge: topics,
          "crux:report@t0.7": topics,
          "crux:rating@t0.7": 56,
        },
        // 5. the merged key points against each response, each response's statements
        //    against its documents, every sub-question against every answer (the core
        //    variant's reports included).
        { keypoint_entail: 50, keypoint_support: 9, subq_coverage: 52 },
        // 6. the pairwise judge: baseline against the core variant, per topic.
        { subq_pairwise: topics },
      ]);
      const total = rounds.flatMap((r) => Object.values(r)).reduce((a, b) => a + b, 0);

      await runCruxExperiment(testConfig({ workspace: onlineDir, ...fields }), {
        env,
        until: "measure",
      });
      assert.equal(server.requests, total, "the online run sends what the batches held");
      const measures = "SELECT * FROM measures ORDER BY ALL";
      const [viaBatch, online] = [
        await query(batchDir, measures),
        await query(onlineDir, measures),
      ];
      const methods = new Set(viaBatch.map((r) => r.method));
      // Every method the config names (and the comparison's judge variance) stored rows.
      const named = METHOD_REGISTRY.filter((m) => !m.section || m.key in fields).map((m) => m.key);
      assert.ok(named.length > 2, named.join(", "));
      for (const m of [...named, "judge-variance"]) {
        assert.ok(methods.has(m), `measures of ${m}: ${[...methods]}`);
      }
      assert.deepEqual(viaBatch, online);
    } finally {
      await Deno.remove(batchDir, { recursive: true });
      await Deno.remove(onlineDir, { recursive: true });
    }
  },
});
