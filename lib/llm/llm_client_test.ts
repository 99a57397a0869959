import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { CallCache } from "./call_cache.ts";
import { LlmClient } from "./llm_client.ts";
import { parseRating } from "./parse_rating.ts";
import type { ChatRequest } from "./types.ts";

const ask = (content: string, id?: string): ChatRequest => ({
  id,
  messages: [{ role: "user", content }],
});

async function memoryCache() {
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  return {
    cache: await CallCache.open(connection),
    close: () => (connection.closeSync(), db.closeSync()),
  };
}

Deno.test("LlmClient sends parameters, records usage, and serves repeats from the cache", async () => {
  const seen: Record<string, unknown>[] = [];
  await using server = startOpenAiServer({
    chat: (
      req,
    ) => (seen.push(req), { content: "three", usage: { prompt_tokens: 7, completion_tokens: 1 } }),
  });
  const { cache, close } = await memoryCache();
  const client = new LlmClient({
    baseUrl: server.url,
    model: "m",
    cache,
    params: { temperature: 0, topP: 1, maxTokens: 5, seed: 42, stop: ["\n"] },
  });
  const [a, b] = await client.chatMany([ask("x", "1"), ask("x", "2")]);
  assert.equal(server.requests, 1, "identical requests are sent once");
  assert.deepEqual(seen[0], {
    model: "m",
    messages: [{ role: "user", content: "x" }],
    temperature: 0,
    top_p: 1,
    max_tokens: 5,
    seed: 42,
    stop: ["\n"],
  });
  assert.deepEqual([a.id, a.status, a.text, a.usage, a.attempts, a.cached], [
    "1",
    "ok",
    "three",
    { promptTokens: 7, completionTokens: 1 },
    1,
    false,
  ]);
  assert.equal(b.key, a.key);
  const again = await client.chat(ask("x"));
  assert.equal(server.requests, 1, "a cached request makes no HTTP call");
  assert.deepEqual([again.text, again.cached], ["three", true]);
  const stored = await cache.get(a.key);
  assert.deepEqual(stored!.params, {
    temperature: 0,
    top_p: 1,
    max_tokens: 5,
    seed: 42,
    stop: ["\n"],
  });
  assert.equal((await cache.stats())[0].hits, 1);
  close();
});

Deno.test("LlmClient retries 429 after Retry-After and gives up on persistent 500 and on 400", async () => {
  await using server = startOpenAiServer({
    chat: (req, { count }) => {
      const q = req.messages[0].content;
      if (q === "rate" && count === 1) return { status: 429, retryAfter: 0.2 };
      if (q === "down") return { status: 503 };
      if (q === "bad") return { status: 400, message: "bad request" };
      return { content: "ok" };
    },
  });
  const client = new LlmClient({
    baseUrl: server.url,
    model: "m",
    maxRetries: 2,
    backoffBaseMs: 1,
    random: () => 0,
  });
  const t0 = performance.now();
  const [rate, down, bad] = await client.chatMany([ask("rate"), ask("down"), ask("bad")]);
  assert.ok(performance.now() - t0 >= 195, "waited for Retry-After");
  assert.deepEqual([rate.status, rate.attempts, server.countFor("rate")], ["ok", 2, 2]);
  assert.deepEqual([down.status, down.attempts, server.countFor("down")], ["failed", 3, 3]);
  assert.equal(
    down.error,
    `Failed after 3 attempt(s): HTTP 503 from ${server.url}/chat/completions: Scripted error 503`,
  );
  assert.deepEqual([bad.status, bad.attempts, server.countFor("bad")], ["failed", 1, 1]);
});

Deno.test("LlmClient retries timeouts, dropped connections and malformed bodies", async () => {
  await using server = startOpenAiServer({
    chat: (req, { count }) => {
      const q = req.messages[0].content;
      if (count > 1) return { content: `fine ${q}` };
      if (q === "slow") return { content: "late", delayMs: 300 };
      if (q === "drop") return { drop: true };
      return { malformedBody: "{not json" };
    },
  });
  const client = new LlmClient({
    baseUrl: server.url,
    model: "m",
    timeoutMs: 100,
    backoffBaseMs: 1,
  });
  const recs = await client.chatMany([ask("slow"), ask("drop"), ask("garbled")]);
  assert.deepEqual(recs.map((r) => [r.status, r.text, r.attempts]), [
    ["ok", "fine slow", 2],
    ["ok", "fine drop", 2],
    ["ok", "fine garbled", 2],
  ]);
});

Deno.test("LlmClient parses answers, stores parse failures, and re-asks at temperature 0.2", async () => {
  const temps: unknown[] = [];
  await using server = startOpenAiServer({
    chat: (req, { count }) => {
      if (req.messages[0].content === "retry") temps.push([req.temperature, req.seed]);
      return { content: req.messages[0].content === "retry" && count < 3 ? "no idea" : "4" };
    },
  });
  const { cache, close } = await memoryCache();
  const client = new LlmClient({
    baseUrl: server.url,
    model: "m",
    cache,
    params: { temperature: 0 },
  });
  const [plain] = await client.chatMany([ask("never")], { parse: parseRating });
  assert.deepEqual(plain.parsed, { ok: true, value: 4 });
  const [once] = await client.chatMany([ask("retry")], { parse: parseRating });
  assert.deepEqual(once.parsed, { ok: false, raw: "no idea", reason: "no rating 0-5 stated" });
  assert.equal((await cache.get(once.key))!.status, "unparsed");
  assert.equal((await cache.get(once.key))!.error, "Unparseable output: no rating 0-5 stated");
  // With re-asks, the cached unparsed answer leads to them (no new request for it).
  const [asked] = await client.chatMany([ask("retry")], { parse: parseRating, reasks: 3 });
  assert.deepEqual(asked.parsed, { ok: true, value: 4 });
  assert.deepEqual(temps, [[0, undefined], [0.2, 1], [0.2, 2]]);
  // Without re-asks, an unparsed answer of an earlier call is asked again.
  const [plainAgain] = await client.chatMany([ask("retry")], { parse: parseRating });
  assert.deepEqual(plainAgain.parsed, { ok: true, value: 4 });
  assert.deepEqual(temps.length, 4);
  close();
});

Deno.test("LlmClient bounds concurrency and stops on abort without recording", async () => {
  await using server = startOpenAiServer({ latencyMs: 20 });
  const { cache, close } = await memoryCache();
  const client = new LlmClient({ baseUrl: server.url, model: "m", cache, concurrency: 3 });
  await client.chatMany(Array.from({ length: 12 }, (_, i) => ask(`q${i}`)));
  assert.equal(server.peakInFlight, 3);
  const controller = new AbortController();
  const job = client.chatMany(Array.from({ length: 12 }, (_, i) => ask(`z${i}`)), {
    signal: controller.signal,
  });
  setTimeout(() => controller.abort(new DOMException("stop", "AbortError")), 5);
  await assert.rejects(job, { name: "AbortError" });
  await cache.flush();
  const stored = (await cache.stats()).reduce((n, r) => n + r.calls, 0);
  assert.equal(stored, 12, "aborted calls leave no record");
  await new Promise((r) => setTimeout(r, 40));
  close();
});

Deno.test("LlmClient spaces requests under a requests-per-minute limit", async () => {
  await using server = startOpenAiServer();
  const client = new LlmClient({ baseUrl: server.url, model: "m", rpm: 600 });
  const t0 = performance.now();
  await client.chatMany(Array.from({ length: 14 }, (_, i) => ask(`r${i}`)));
  // 600/min = one per 100 ms; the first 11 start at once (one second of burst),
  // requests 12, 13 and 14 at 100, 200 and 300 ms.
  const took = performance.now() - t0;
  assert.ok(took >= 295 && took < 1000, `took ${took} ms`);
});

Deno.test("LlmClient embeds in batches and scores with /rerank and /score", async () => {
  await using server = startOpenAiServer({
    embed: (text) => [text.length, 1],
    score: (q, d) => (d.includes(q) ? 0.9 : 0.1),
  });
  const client = new LlmClient({ baseUrl: server.url, model: "m", embedBatchSize: 2 });
  assert.deepEqual(await client.embed(["a", "bb", "ccc"]), [[1, 1], [2, 1], [3, 1]]);
  assert.equal(server.log.filter((e) => e.path === "/v1/embeddings").length, 2);
  assert.deepEqual(await client.rerank("cat", ["dog", "a cat", "cow"]), [0.1, 0.9, 0.1]);
  assert.deepEqual(await client.rerank("cow", ["dog", "cow"], { api: "score" }), [0.1, 0.9]);
});

Deno.test("clients sharing a cache ask a call once when both need it at the same time; a failed one is asked again", async () => {
  // The first request for "flaky" fails; every other request is answered.
  await using server = startOpenAiServer({
    latencyMs: 40,
    chat: (req, info) =>
      info.key === "flaky" && info.count === 1
        ? { status: 500, content: "down" }
        : { content: `answer to ${String(req.messages.at(-1)?.content)}` },
  });
  const { cache, close } = await memoryCache();
  try {
    const base = { baseUrl: server.url, model: "m", cache, maxRetries: 0 };
    const a = new LlmClient(base);
    const b = new LlmClient(base);
    const [ra, rb] = await Promise.all([
      a.chatMany([ask("same"), ask("only a")]),
      b.chatMany([ask("same"), ask("only b")]),
    ]);
    assert.equal(server.countFor("same"), 1);
    assert.equal(server.requests, 3);
    assert.deepEqual([ra[0].text, rb[0].text], ["answer to same", "answer to same"]);
    assert.deepEqual([ra[0].cached, rb[0].cached].sort(), [false, true]);
    // A call that failed for one client is asked again by the other, as a re-run would.
    // b starts once a's request has reached the server, so it finds the call in flight
    // however slow the machine is; it must not take a's failure as its own answer.
    server.reset();
    const waiting = a.chatMany([ask("flaky")]);
    while (server.countFor("flaky") === 0) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const [again] = await b.chatMany([ask("flaky")]);
    const [first] = await waiting;
    assert.equal(first.status, "failed");
    assert.equal(again.status, "ok");
    assert.equal(server.countFor("flaky"), 2);
  } finally {
    close();
  }
});
