import assert from "node:assert/strict";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { LlmClient } from "./llm_client.ts";
import { llmGenerator } from "./llm_generator.ts";

Deno.test("llmGenerator uses rag_report with numbered contexts or direct_report, budget as max_tokens", async () => {
  const seen: { prompt: string; max: unknown }[] = [];
  await using server = startOpenAiServer({
    chat: (
      req,
    ) => (seen.push({ prompt: req.messages.at(-1)!.content, max: req.max_tokens }),
      { content: " A short report. " }),
  });
  const gen = llmGenerator(new LlmClient({ baseUrl: server.url, model: "writer" }));
  const rag = await gen.generate({
    request: "Explain X.",
    contexts: ["First.", "Second."],
    maxTokens: 120,
  });
  assert.deepEqual(rag, { text: "A short report.", tokens: 4, status: "ok", backend: "writer" });
  assert.match(seen[0].prompt, /\[1\] First\.\n\n\[2\] Second\./);
  assert.match(seen[0].prompt, /within 120 tokens/);
  assert.equal(seen[0].max, 120);
  await gen.generate({ request: "Explain X.", contexts: [], maxTokens: 80 });
  assert.doesNotMatch(seen[1].prompt, /Sources:/);
  assert.equal(seen[1].max, 80);
});
