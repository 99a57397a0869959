import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { CallCache } from "./call_cache.ts";
import { LlmClient } from "./llm_client.ts";
import { exportBatch } from "./export_batch.ts";
import { importBatch } from "./import_batch.ts";
import type { ChatRequest } from "./types.ts";

const ask = (content: string): ChatRequest => ({
  messages: [{ role: "user", content }],
  template: "t@1",
});

Deno.test("exportBatch + importBatch: a batch run fills the cache, then the online path sends nothing", async () => {
  await using server = startOpenAiServer({ chat: () => ({ content: "online" }) });
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  const cache = await CallCache.open(connection);
  const client = new LlmClient({
    baseUrl: server.url,
    model: "m",
    cache,
    params: { temperature: 0 },
  });
  await client.chat(ask("done before"));
  const requests = [ask("done before"), ask("a"), ask("b"), ask("a"), ask("c")];
  const exp = await exportBatch(requests, client, cache);
  assert.deepEqual([exp.exported, exp.cached], [3, 1]);
  const lines = exp.jsonl.trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines[0].body, {
    model: "m",
    messages: [{ role: "user", content: "a" }],
    temperature: 0,
  });
  assert.deepEqual([lines[0].method, lines[0].url], ["POST", "/v1/chat/completions"]);
  assert.equal((await cache.get(lines[0].custom_id))!.status, "pending");

  // What the Batch API returns: a, b answered; c errored.
  const output = lines.map((l, i) =>
    JSON.stringify(
      i < 2
        ? {
          id: `r${i}`,
          custom_id: l.custom_id,
          response: {
            status_code: 200,
            body: {
              choices: [{ message: { content: `batch ${i}` } }],
              usage: { prompt_tokens: 3, completion_tokens: 2 },
            },
          },
          error: null,
        }
        : {
          id: `r${i}`,
          custom_id: l.custom_id,
          response: null,
          error: { code: "x", message: "quota" },
        },
    )
  ).join("\n");
  assert.deepEqual(await importBatch(output, cache, { file: "out.jsonl" }), {
    ok: 2,
    failed: 1,
    unchanged: 0,
  });
  assert.deepEqual(await importBatch(output.split("\n")[0], cache, { file: "out.jsonl" }), {
    ok: 0,
    failed: 0,
    unchanged: 1,
  });

  const before = server.requests;
  const recs = await client.chatMany([ask("a"), ask("b")]);
  assert.equal(server.requests, before, "imported answers are served from the cache");
  assert.deepEqual(recs.map((r) => [r.text, r.cached, r.usage.completionTokens]), [[
    "batch 0",
    true,
    2,
  ], ["batch 1", true, 2]]);
  const [c] = await client.chatMany([ask("c")]);
  assert.deepEqual(
    [c.text, server.requests],
    ["online", before + 1],
    "failed batch lines are retried online",
  );

  await assert.rejects(
    importBatch(
      '{"custom_id": "nope", "response": {"status_code": 200, "body": {}}}\nnot json',
      cache,
      { file: "o.jsonl" },
    ),
    /o.jsonl:1: custom_id nope is not a pending request of this workspace; pass the batch input file\no.jsonl:2: line is not valid JSON/,
  );
  connection.closeSync();
  db.closeSync();
});
