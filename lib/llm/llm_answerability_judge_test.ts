import assert from "node:assert/strict";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { LlmClient } from "./llm_client.ts";
import { llmAnswerabilityJudge } from "./llm_answerability_judge.ts";

Deno.test("llmAnswerabilityJudge renders the template and maps answers to ok / unparsed / failed", async () => {
  await using server = startOpenAiServer({
    chat: (req) => {
      const prompt = req.messages.at(-1)!.content;
      if (prompt.includes("Question: Q1")) return { content: "5" };
      if (prompt.includes("Question: Q2")) return { content: "Mostly relevant" };
      return { status: 500 };
    },
  });
  const client = new LlmClient({
    baseUrl: server.url,
    model: "judge-x",
    maxRetries: 1,
    backoffBaseMs: 1,
  });
  const results = await llmAnswerabilityJudge(client).rate([
    { id: "a", question: "Q1", context: "C1" },
    { id: "b", question: "Q2", context: "C2" },
    { id: "c", question: "Q3", context: "C3" },
  ]);
  assert.deepEqual(results.map((r) => [r.id, r.rating, r.status, r.judge]), [
    ["a", 5, "ok", "judge-x"],
    ["b", -1, "unparsed", "judge-x"],
    ["c", -1, "failed", "judge-x"],
  ]);
  assert.deepEqual([results[0].raw, results[0].error], ["5", undefined]);
  assert.deepEqual([results[1].raw, results[1].error], ["Mostly relevant", undefined]);
  // A failed call has no model output: raw is null and the reason is in error.
  assert.equal(results[2].raw, null);
  assert.match(results[2].error!, /^Failed after 2 attempt\(s\): HTTP 500/);
  const req = server.log.find((e) => e.key.includes("Question: Q1"))!;
  assert.match(req.key, /Context:\nC1\n/);
});
