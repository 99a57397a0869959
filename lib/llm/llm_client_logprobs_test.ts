import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { CallCache } from "./call_cache.ts";
import { LlmClient } from "./llm_client.ts";
import { exportBatch } from "./export_batch.ts";
import { importBatch } from "./import_batch.ts";
import type { ChatRequest } from "./types.ts";

const ask = (content: string, logprobs?: number): ChatRequest => ({
  messages: [{ role: "user", content }],
  logprobs,
});

const SCRIPT = [
  {
    token: "B",
    logprob: -0.1,
    top: [{ token: "B", logprob: -0.1 }, { token: "A", logprob: -2.5 }],
  },
];

async function memoryCache() {
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  return {
    connection,
    cache: await CallCache.open(connection),
    close: () => (connection.closeSync(), db.closeSync()),
  };
}

Deno.test("LlmClient asks for logprobs, returns the first tokens' alternatives, and the cache replays them", async () => {
  const bodies: Record<string, unknown>[] = [];
  await using server = startOpenAiServer({
    chat: (req) => (bodies.push(req), { content: "B", logprobs: SCRIPT }),
  });
  const { cache, close } = await memoryCache();
  const client = new LlmClient({ baseUrl: server.url, model: "m", cache });
  const plain = await client.chat(ask("q"));
  assert.equal(plain.logprobs, undefined, "not asked: none");
  assert.equal(bodies[0].logprobs, undefined);
  // The plain answer is stored without log-probabilities: asking with them is a miss.
  const first = await client.chat(ask("q", 2));
  assert.equal(server.requests, 2);
  assert.deepEqual([bodies[1].logprobs, bodies[1].top_logprobs], [true, 2]);
  assert.equal(first.key, plain.key, "logprobs are not part of the cache key");
  assert.deepEqual(first.logprobs, [{
    token: "B",
    logprob: -0.1,
    top: [{ token: "B", logprob: -0.1 }, { token: "A", logprob: -2.5 }],
  }]);
  // Replayed from the cache, also for fewer alternatives and for a plain request.
  const again = await client.chat(ask("q", 2));
  const fewer = await client.chat(ask("q", 1));
  const plainAgain = await client.chat(ask("q"));
  assert.equal(server.requests, 2);
  assert.deepEqual([again.cached, fewer.cached, plainAgain.cached], [true, true, true]);
  assert.deepEqual(again.logprobs, first.logprobs);
  // More alternatives than stored: asked again.
  await client.chat(ask("q", 5));
  assert.equal(server.requests, 3);
  // A new cache on the same database reads them back from the table.
  const reopened = await CallCache.open(cache.connection);
  const stored = await reopened.get(first.key);
  assert.deepEqual(stored?.logprobs?.topK, 5);
  assert.equal(stored?.logprobs?.tokens?.[0].top[1].token, "A");
  close();
});

Deno.test("LlmClient against an endpoint without logprobs: null, stored, and not asked again", async () => {
  await using server = startOpenAiServer({ logprobs: false, chat: () => ({ content: "B" }) });
  const { cache, connection, close } = await memoryCache();
  const client = new LlmClient({ baseUrl: server.url, model: "m", cache });
  const rec = await client.chat(ask("q", 3));
  assert.equal(rec.logprobs, null);
  const again = await client.chat(ask("q", 3));
  assert.deepEqual([server.requests, again.cached, again.logprobs], [1, true, null]);
  const rows = (await connection.runAndReadAll("SELECT logprobs::VARCHAR FROM llm_logprobs"))
    .getRows();
  assert.deepEqual(rows, [['{"topK":3,"tokens":null}']]);
  // Replacing the answer by a plain call drops the stale log-probabilities.
  await cache.put({ ...(await cache.get(rec.key))!, logprobs: undefined, response: "C" });
  await cache.flush();
  const left = (await connection.runAndReadAll("SELECT count(*)::INTEGER FROM llm_logprobs"))
    .getRows();
  assert.deepEqual(left, [[0]]);
  close();
});

Deno.test("batch export and import carry logprobs; the online path then sends nothing", async () => {
  await using server = startOpenAiServer({ chat: () => ({ content: "online" }) });
  const { cache, close } = await memoryCache();
  const client = new LlmClient({ baseUrl: server.url, model: "m", cache });
  const exp = await exportBatch([ask("a", 2), ask("b")], client, cache);
  const lines = exp.jsonl.trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.body.logprobs, l.body.top_logprobs]), [
    [true, 2],
    [undefined, undefined],
  ]);
  const choice = (content: string, logprobs: unknown) => ({
    index: 0,
    message: { role: "assistant", content },
    logprobs,
  });
  const output = [
    {
      custom_id: lines[0].custom_id,
      response: {
        status_code: 200,
        body: {
          choices: [choice("B", {
            content: [{
              token: "B",
              logprob: -0.3,
              top_logprobs: [{ token: "B", logprob: -0.3 }, { token: "A", logprob: -1.4 }],
            }],
          })],
        },
      },
    },
    {
      custom_id: lines[1].custom_id,
      response: { status_code: 200, body: { choices: [choice("plain", null)] } },
    },
  ].map((o) => JSON.stringify(o)).join("\n");
  assert.deepEqual(await importBatch(output, cache, { file: "out.jsonl" }), {
    ok: 2,
    failed: 0,
    unchanged: 0,
  });
  const [a, b] = await client.chatMany([ask("a", 2), ask("b")]);
  assert.equal(server.requests, 0);
  assert.deepEqual(a.logprobs?.[0].top.map((t) => [t.token, t.logprob]), [["B", -0.3], [
    "A",
    -1.4,
  ]]);
  assert.deepEqual([b.text, b.logprobs], ["plain", undefined]);
  // Imported from the request file alone (no pending rows), the key ignores logprobs.
  const fresh = await memoryCache();
  const n = await importBatch(output, fresh.cache, { file: "out.jsonl", requests: exp.jsonl });
  assert.equal(n.ok, 2);
  assert.equal((await fresh.cache.get(lines[0].custom_id))?.logprobs?.topK, 2);
  fresh.close();
  close();
});
