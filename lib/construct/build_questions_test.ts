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
  await assert.rejects(() => buildQuestions(ws, { n: 0 }), /must be a positive integer, got 0/);
});

Deno.test("buildQuestions: CRUX's count per dataset by default (DUC 15, Multi-News 10), one number or a map overrides", async () => {
  await using ws = await tinyWorkspace();
  const summary = Array.from({ length: 20 }, (_, i) => `Fact number ${i + 1} happened.`).join(" ");
  await ws.exec("DELETE FROM topics");
  await ws.upsert("topics", [
    { topicId: "duc04-test-1", request: "r", summary, source: "duc04" },
    { topicId: "multi_news-test-1", request: "r", summary, source: "multi_news" },
    { topicId: "s1", request: "r", summary, source: "sample" },
  ]);
  const perTopic = async () =>
    Object.fromEntries(
      (await ws.query<{ t: string; n: number }>(
        "SELECT topic_id AS t, count(*)::INT AS n FROM questions GROUP BY ALL",
      )).map((r) => [r.t, r.n]),
    );
  await buildQuestions(ws);
  assert.deepEqual(await perTopic(), { "duc04-test-1": 15, "multi_news-test-1": 10, s1: 10 });
  await ws.exec("DELETE FROM questions");
  await buildQuestions(ws, { n: { multi_news: 4, default: 3 } });
  assert.deepEqual(await perTopic(), { "duc04-test-1": 15, "multi_news-test-1": 4, s1: 3 });
  await ws.exec("DELETE FROM questions");
  await buildQuestions(ws, { n: 6 });
  assert.deepEqual(await perTopic(), { "duc04-test-1": 6, "multi_news-test-1": 6, s1: 6 });
});
