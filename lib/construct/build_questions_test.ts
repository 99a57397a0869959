import assert from "node:assert/strict";
import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { buildQuestions } from "./build_questions.ts";
import { tinyWorkspace } from "./_tiny_workspace.ts";

Deno.test("buildQuestions: numbering stripped, duplicates dropped, at most n; tagless answers re-asked once", async () => {
  await using ws = await tinyWorkspace();
  await using server = startOpenAiServer({
    chat: (req) => {
      const user = req.messages.at(-1)!.content;
      if (!/Write (\d+) questions/i.test(user)) return { content: "?" };
      if (user.includes("Alder")) {
        return {
          content:
            "<q>1. Why did the Alder bridge close?</q>\n<q>\n2) Why did the Alder bridge close?</q><q>3. Who pays?</q><q>4. How long?</q>",
        };
      }
      return { content: "Sorry, here are questions: 1. a 2. b" }; // no tags, also on the re-ask
    },
  });
  const client = new LlmClient({
    baseUrl: server.url,
    model: "m",
    cache: await CallCache.open(ws.connection),
  });
  const notes: string[] = [];
  const s = await buildQuestions(ws, { client, n: 2, onNote: (m) => notes.push(m) });
  assert.deepEqual(s, {
    step: "questions",
    topics: 1,
    skipped: 0,
    written: 2,
    failed: 0,
    unparsed: 1,
  });
  assert.equal(server.requests, 3, "two prompts plus one re-ask of the tagless answer");
  const qs = await ws.query<{ questionId: string; ordinal: number; text: string }>(
    "SELECT question_id, ordinal, text FROM questions ORDER BY ordinal",
  );
  assert.deepEqual(qs, [
    { questionId: "tiny-1#q1", ordinal: 1, text: "Why did the Alder bridge close?" },
    { questionId: "tiny-1#q2", ordinal: 2, text: "Who pays?" },
  ]);
  assert.ok(notes.some((n) => /tiny-2.*no <q> question/.test(n)));
  await assert.rejects(() => buildQuestions(ws, { n: 0 }), /n must be a positive integer, got 0/);
});
