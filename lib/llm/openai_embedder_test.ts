import assert from "node:assert/strict";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { LlmClient } from "./llm_client.ts";
import { openAiEmbedder } from "./openai_embedder.ts";

Deno.test("openAiEmbedder returns Float32Array vectors named after the model", async () => {
  await using server = startOpenAiServer({
    embed: (t, model) => [t.length, model === "emb" ? 1 : 0],
  });
  const embedder = openAiEmbedder(new LlmClient({ baseUrl: server.url, model: "chat" }), {
    model: "emb",
  });
  assert.equal(embedder.name, "emb");
  assert.deepEqual(await embedder.embed(["ab", "abcd"]), [
    Float32Array.from([2, 1]),
    Float32Array.from([4, 1]),
  ]);
});
