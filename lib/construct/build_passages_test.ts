import assert from "node:assert/strict";
import { buildPassages } from "./build_passages.ts";
import { tinyWorkspace } from "./_tiny_workspace.ts";
import { countTokens } from "@lib/text/mod.ts";

Deno.test("buildPassages offline: one chunk per short document, CRUX ids, token counts, resumable", async () => {
  await using ws = await tinyWorkspace();
  const s = await buildPassages(ws);
  assert.deepEqual(s, {
    step: "passages",
    topics: 2,
    skipped: 0,
    written: 4,
    failed: 0,
    unparsed: 0,
  });
  const rows = await ws.query<{ passageId: string; docId: string; tokens: number; text: string }>(
    "SELECT passage_id, doc_id, tokens, text FROM passages ORDER BY passage_id",
  );
  assert.deepEqual(rows.map((r) => [r.passageId, r.docId]), [
    ["tiny-1:0#0", "tiny-1:0"],
    ["tiny-1:1#1", "tiny-1:1"],
    ["tiny-2:0#0", "tiny-2:0"],
    ["tiny-2:1#1", "tiny-2:1"],
  ]);
  for (const r of rows) assert.equal(r.tokens, countTokens(r.text));
  assert.ok(rows[0].text.startsWith("The Alder harbour bridge was closed"));
  const again = await buildPassages(ws);
  assert.deepEqual(again, {
    step: "passages",
    topics: 0,
    skipped: 2,
    written: 0,
    failed: 0,
    unparsed: 0,
  });
});

import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { fakeReply } from "../../tests/support/fake_model.ts";

const docOf = (content: string) => content.slice(content.lastIndexOf("Document:\n") + 10).trim();

Deno.test("buildPassages with a model: <p> passages, j across the topic, cached, faults", async () => {
  await using ws = await tinyWorkspace();
  const long = Array.from({ length: 1100 }, (_, i) => `word${i}`).join(" ");
  await ws.upsert("documents", [{ topicId: "tiny-2", docId: "tiny-2:2", docIndex: 2, text: long }]);
  let failing = true;
  await using server = startOpenAiServer({
    chat: (req) => {
      const doc = docOf(req.messages.at(-1)!.content);
      if (doc.startsWith("word")) return { content: "<p>a</p><p>b</p><p>c</p><p>d</p>" }; // capped at 3
      if (doc.startsWith("The regional government")) return { content: "I cannot rewrite this." }; // no <p>
      if (doc.startsWith("Engineers estimate") && failing) return { status: 500 };
      return { content: fakeReply(req) };
    },
  });
  const cache = await CallCache.open(ws.connection);
  const client = new LlmClient({
    baseUrl: server.url,
    model: "test-model",
    cache,
    maxRetries: 1,
    backoffBaseMs: 1,
  });
  const notes: string[] = [];
  const s1 = await buildPassages(ws, { client, onNote: (m) => notes.push(m) });
  // tiny-1 has a failed call: not written. tiny-2: doc 0 -> 2 passages, doc 1 -> none, doc 2 -> 3 pieces x 3.
  assert.deepEqual(s1, {
    step: "passages",
    topics: 1,
    skipped: 0,
    written: 11,
    failed: 1,
    unparsed: 1,
  });
  assert.equal(server.requests, 1 + 2 + 1 + 1 + 3); // tiny-1: 1 ok + 500 twice (1 retry); tiny-2: 1 + 1 + 3 pieces
  assert.ok(notes.some((n) => /tiny-2.*"tiny-2:1".*no <p> passage/.test(n)), notes.join("\n"));
  assert.ok(notes.some((n) => /tiny-1.*"tiny-1:1" failed/.test(n)), notes.join("\n"));
  const ids =
    (await ws.query<{ passageId: string }>("SELECT passage_id FROM passages ORDER BY passage_id"))
      .map((r) => r.passageId);
  assert.deepEqual(ids.slice(0, 3), ["tiny-2:0#0", "tiny-2:0#1", "tiny-2:2#10"]);
  assert.equal(ids.length, 11);

  failing = false;
  server.reset();
  const s2 = await buildPassages(ws, { client });
  assert.deepEqual(s2, {
    step: "passages",
    topics: 1,
    skipped: 1,
    written: 4,
    failed: 0,
    unparsed: 0,
  });
  assert.equal(server.requests, 1, "only the failed call is sent again");
  const t1 = await ws.query<{ passageId: string; text: string }>(
    "SELECT passage_id, text FROM passages WHERE topic_id = 'tiny-1' ORDER BY passage_id",
  );
  assert.deepEqual(t1.map((r) => r.passageId), [
    "tiny-1:0#0",
    "tiny-1:0#1",
    "tiny-1:1#2",
    "tiny-1:1#3",
  ]);
  assert.ok(t1[2].text.startsWith("Engineers estimate that repairing"));

  await ws.exec("DELETE FROM passages");
  server.reset();
  await buildPassages(ws, { client });
  // Served from the cache, except the unparsed answer (document "tiny-2:1"), asked again.
  assert.equal(server.requests, 1, "a re-run is served from the cache");
  assert.equal((await ws.query("SELECT * FROM passages")).length, 15);
});
