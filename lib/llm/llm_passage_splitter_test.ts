import assert from "node:assert/strict";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { LlmClient } from "./llm_client.ts";
import { llmPassageSplitter } from "./llm_passage_splitter.ts";

Deno.test("llmPassageSplitter splits long documents, keeps at most 3 <p> per piece, flags empty output", async () => {
  await using server = startOpenAiServer({
    chat: (req) => {
      const prompt = req.messages.at(-1)!.content;
      if (prompt.includes("EMPTY")) return { content: "Sorry, nothing to rewrite." };
      const first = /Document:\n(\S+)/.exec(prompt)![1];
      return { content: `<p>${first} one</p><p>two</p><p>three</p><p>four</p>` };
    },
  });
  const client = new LlmClient({ baseUrl: server.url, model: "gen" });
  const long = Array.from({ length: 1100 }, (_, i) => `w${i}`).join(" ");
  const [a, b, c] = await llmPassageSplitter(client).split([long, "short doc", "EMPTY doc"]);
  assert.deepEqual(a.passages, [
    "w0 one",
    "two",
    "three",
    "w512 one",
    "two",
    "three",
    "w1024 one",
    "two",
    "three",
  ]);
  assert.deepEqual(b, { passages: ["short one", "two", "three"], status: "ok", raw: "" });
  assert.deepEqual(c, { passages: [], status: "unparsed", raw: "Sorry, nothing to rewrite." });
  assert.equal(server.requests, 5);
});
