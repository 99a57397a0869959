import assert from "node:assert/strict";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { generateResponses } from "./generate_responses.ts";
import { testClient } from "./_test_client.ts";

const REQ = {
  qid: "q",
  runId: "l2r",
  question: "When did it open?",
  documents: ["It opened in 1932.", "Tolls ended in 1990."],
};

Deno.test("generateResponses offline: the documents' sentences in order within the budget", async () => {
  const [r] = await generateResponses([REQ], undefined, { maxTokens: 7 });
  assert.deepEqual([r.text, r.backend, r.status], [
    "It opened in 1932.",
    "offline-extractive",
    "ok",
  ]);
});

Deno.test("generateResponses online: documents joined by ===== lines with the instruction; cached", async () => {
  await using server = startOpenAiServer({
    chat: () => ({ content: "It opened in 1932; tolls ended in 1990." }),
  });
  const { client, ws } = await testClient(server.url);
  const [r] = await generateResponses([REQ], client, { maxTokens: 50 });
  assert.deepEqual([r.text, r.backend, r.runId], [
    "It opened in 1932; tolls ended in 1990.",
    "kp-model",
    "l2r",
  ]);
  const prompt = server.log[0].key;
  assert.ok(prompt.includes("It opened in 1932.\n\n=====\n\nTolls ended in 1990."));
  assert.match(prompt, /as many of the important points in the documents as you can/);
  await generateResponses([REQ], client, { maxTokens: 50 });
  assert.equal(server.requests, 1);
  ws.close();
});

Deno.test("generateResponses: no length cap sent to a model by default (Long2RAG); 940 tokens offline", async () => {
  const seen: (number | undefined)[] = [];
  await using server = startOpenAiServer({
    chat: (req) => {
      seen.push(req.max_tokens);
      return { content: "An answer." };
    },
  });
  const { client, ws } = await testClient(server.url);
  await generateResponses([REQ], client);
  await generateResponses([{ ...REQ, qid: "q2" }], client, { maxTokens: 2000 });
  assert.deepEqual(seen, [undefined, 2000]);
  ws.close();
  const long = {
    ...REQ,
    documents: [Array.from({ length: 400 }, (_, i) => `Fact ${i} holds.`).join(" ")],
  };
  const [r] = await generateResponses([long], undefined);
  assert.ok(r.tokens <= 940 && r.tokens > 900, `offline length ${r.tokens}`);
});
