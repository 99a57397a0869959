/**
 * An online experiment of every method with a user's prompt file for every
 * step (the config's `prompts` section): the server receives the files' texts
 * for every model call, and a file with an unknown placeholder stops the run
 * before any call.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { BUILTIN_PROMPTS, loadTemplate } from "@lib/llm/mod.ts";
import { type ServerChatRequest, startOpenAiServer } from "../support/openai_server.ts";
import { testConfig } from "../pipeline/_config.ts";
import { tinyWorkspaceDir } from "../pipeline/_tiny.ts";
import { methodReply } from "../llm/_method_replies.ts";

/** Every built-in step's prompt as a user's file: a system line naming the file, then its messages. */
async function userFiles(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const e of Deno.readDir(BUILTIN_PROMPTS)) {
    const m = /^(.+)\.v\d+\.prompt$/.exec(e.name);
    if (!m || files[m[1]]) continue;
    const t = await loadTemplate(m[1]);
    const text = [
      `@@ system\nUser file: ${m[1]}.`,
      ...t.messages.map((x) => `@@ ${x.role}\n${x.content}`),
    ]
      .join("\n");
    files[m[1]] = join(dir, `${m[1]}.txt`);
    await Deno.writeTextFile(files[m[1]], text);
  }
  return files;
}

const fields = {
  backend: "openai",
  llm: { concurrency: 4 },
  construct: { questions: 4 },
  nuggets: {},
  keypoints: {},
  subq: { n: 4, variants: ["query"] },
};

Deno.test({
  name:
    "every model step of an online experiment (rerankers too) runs with the user's prompt files",
  sanitizeResources: false,
  fn: async () => {
    const seen: ServerChatRequest[] = [];
    await using server = startOpenAiServer({ chat: (req) => (seen.push(req), methodReply(req)) });
    const env = {
      OPENAI_BASE_URL: server.url,
      CRUX_GENERATOR_MODEL: "gen-model",
      CRUX_JUDGE_MODEL: "judge-model",
      CRUX_RERANKER_MODEL: "rerank-model",
    };
    const dir = await tinyWorkspaceDir();
    const prompts = await Deno.makeTempDir();
    try {
      const files = await userFiles(prompts);
      const rerank = ["listwise", "first-token", "setwise", "pointwise"].map((method) => ({
        name: `bm25-${method}`,
        from: "bm25",
        method,
        depth: 5,
      }));
      const run = await runCruxExperiment(
        testConfig({ workspace: dir, ...fields, rerank, prompts: files }),
        {
          env,
          until: "measure",
        },
      );
      assert.deepEqual(run.stages.incomplete, []);
      assert.ok(seen.length > 100, `${seen.length} calls`);
      const from = new Map<string, number>();
      for (const req of seen) {
        const m = /^User file: ([a-z_]+)\.$/.exec(req.messages[0].content);
        assert.ok(m, `a call without the user's file: ${req.messages[0].content.slice(0, 80)}`);
        from.set(m[1], (from.get(m[1]) ?? 0) + 1);
        // The user's first-token prompt still asks one output token (the answer "ok" names no
        // label, so no window falls back to a second call).
        if (m[1] === "rerank_first") assert.equal(req.max_tokens, 1);
      }
      // Every model step of the four methods and of the CRUX chain was asked.
      for (
        const step of [
          "decontextualize",
          "report_request",
          "subquestions",
          "answerability",
          "rag_report",
          "direct_report",
          "nugget_create",
          "nugget_importance",
          "nugget_assign",
          "keypoint_extract",
          "keypoint_merge",
          "keypoint_entail",
          "keypoint_support",
          "subq_decompose",
          "subq_type",
          "subq_coverage",
          "subq_pairwise",
          "rerank_listwise",
          "rerank_first",
          "rerank_setwise",
          "relevance",
        ]
      ) {
        assert.ok((from.get(step) ?? 0) > 0, `no call of ${step}: ${JSON.stringify([...from])}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(prompts, { recursive: true });
    }
  },
});

Deno.test({
  name: "an online experiment with a prompt file naming an unknown placeholder makes no call",
  sanitizeResources: false,
  fn: async () => {
    await using server = startOpenAiServer({ chat: methodReply });
    const env = {
      OPENAI_BASE_URL: server.url,
      CRUX_GENERATOR_MODEL: "gen-model",
      CRUX_JUDGE_MODEL: "judge-model",
    };
    const dir = await tinyWorkspaceDir();
    const prompts = await Deno.makeTempDir();
    try {
      const bad = join(prompts, "nuggets.txt");
      await Deno.writeTextFile(
        bad,
        "{{query}} {{nuggets}} {{count}} {{passages}} {{max_nuggets}} {{topic_title}}",
      );
      await assert.rejects(
        runCruxExperiment(
          testConfig({ workspace: dir, ...fields, prompts: { nugget_create: bad } }),
          {
            env,
            until: "measure",
          },
        ),
        /unknown placeholder\(s\) \{\{topic_title\}\}/,
      );
      assert.equal(server.requests, 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(prompts, { recursive: true });
    }
  },
});
