import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import {
  CallCache,
  LlmClient,
  type ProgressEvent,
  resolveRoleConfig,
  terminalProgress,
} from "@lib/llm/mod.ts";
import { startOpenAiServer } from "../support/openai_server.ts";

const ask = (content: string) => ({ messages: [{ role: "user" as const, content }] });

Deno.test("a 600 s Retry-After is capped, announced with the URL on the progress line, and counted", async () => {
  await using server = startOpenAiServer({
    chat: (_req, { count }) =>
      count === 1 ? { status: 429, retryAfter: 600, message: "busy" } : { content: "4" },
  });
  const events: ProgressEvent[] = [];
  const lines: string[] = [];
  const line = terminalProgress((t) => lines.push(t), { intervalMs: 60_000 });
  const client = new LlmClient({ baseUrl: server.url, model: "m", maxRetryWaitMs: 300 });
  const t0 = performance.now();
  const [rec] = await client.chatMany([ask("2+2?")], {
    step: "judge",
    onProgress: (e) => {
      events.push(e);
      line(e);
    },
  });
  const seconds = (performance.now() - t0) / 1000;
  assert.equal(rec.status, "ok");
  assert.equal(rec.text, "4");
  assert.ok(seconds < 5, `took ${seconds} s: the wait was not capped`);
  const waits = events.filter((e) => e.waiting);
  assert.equal(waits.length, 1);
  assert.deepEqual(waits[0].waiting, {
    url: `${server.url}/chat/completions`,
    waitMs: 300,
    retryAfterMs: 600_000,
    capped: true,
    reason: `HTTP 429 from ${server.url}/chat/completions: busy`,
    attempt: 2,
  });
  // The final event counts the wait; the terminal shows the announcement at once,
  // although the interval (60 s) would hold back an ordinary update.
  assert.deepEqual(events.at(-1)!.waits, { count: 1, totalMs: 300 });
  assert.equal(lines.length, 3, lines.join(""));
  assert.match(
    lines[1],
    new RegExp(
      `judge 0/1 .*retry waits 1 \\(0\\.3s\\)  waiting 0\\.3s \\(until \\d\\d:\\d\\d:\\d\\d UTC\\) before attempt 2 at ${
        server.url.replace(/[.]/g, "\\.")
      }/chat/completions; Retry-After 10m00s capped \\(HTTP 429`,
    ),
  );
  assert.match(lines[2], /judge 1\/1 .*retry waits 1 \(0\.3s\)\n$/);
});

Deno.test("without a setting, a Retry-After wait is capped at 120 s", async () => {
  await using server = startOpenAiServer({ chat: () => ({ status: 503, retryAfter: 600 }) });
  const client = new LlmClient({ baseUrl: server.url, model: "m" });
  const controller = new AbortController();
  let announced: ProgressEvent["waiting"];
  await assert.rejects(
    client.chatMany([ask("q")], {
      signal: controller.signal,
      onProgress: (e) => {
        if (e.waiting) {
          announced = e.waiting;
          controller.abort(new Error("stop"));
        }
      },
    }),
    /stop/,
  );
  assert.equal(announced?.waitMs, 120_000);
  assert.equal(announced?.retryAfterMs, 600_000);
  assert.equal(announced?.capped, true);
});

Deno.test("a 20 MB answer is recorded failed with its size and not stored", async () => {
  const huge = "5" + "x".repeat(20 * 1024 * 1024 - 1);
  await using server = startOpenAiServer({
    chat: (req) => ({ content: req.messages[0].content === "big" ? huge : "3" }),
  });
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  try {
    const cache = await CallCache.open(connection);
    const client = new LlmClient({ baseUrl: server.url, model: "m", cache });
    const recs = await client.chatMany([ask("big"), ask("small")]);
    assert.deepEqual(recs.map((r) => r.status), ["failed", "ok"]);
    assert.equal(recs[0].text, "");
    assert.equal(
      recs[0].error,
      `Answer of 20971520 bytes from ${server.url}/chat/completions exceeds the maximum of ` +
        "262144 bytes (maxAnswerBytes); not stored",
    );
    const stored = await cache.get(recs[0].key);
    assert.equal(stored?.status, "failed");
    assert.equal(stored?.response, "");
    // Not retried: the same request would bring the same answer.
    assert.equal(server.countFor("big"), 1);
    const bytes = (await connection.runAndReadAll(
      "SELECT max(length(response)) FROM llm_calls",
    )).getRows()[0][0];
    assert.equal(Number(bytes), 1);
    // A role may allow more: 30 MB admits it.
    const roomy = new LlmClient({ baseUrl: server.url, model: "m2", maxAnswerBytes: 30e6 });
    const [ok] = await roomy.chatMany([ask("big")]);
    assert.equal(ok.status, "ok");
    assert.equal(ok.text.length, 20 * 1024 * 1024);
  } finally {
    connection.closeSync();
    db.closeSync();
  }
});

Deno.test("maxAnswerBytes and maxRetryWaitMs come from the config, a role's own size first", () => {
  const s = resolveRoleConfig("judge", {
    env: {},
    config: {
      maxAnswerBytes: 1000,
      maxRetryWaitMs: 5000,
      roles: { judge: { model: "j", maxAnswerBytes: 64 }, generator: { model: "g" } },
    },
  });
  assert.equal(s.maxAnswerBytes, 64);
  assert.equal(s.maxRetryWaitMs, 5000);
  const g = resolveRoleConfig("generator", {
    env: {},
    config: { maxAnswerBytes: 1000, roles: { generator: { model: "g" } } },
  });
  assert.equal(g.maxAnswerBytes, 1000);
  assert.equal(g.maxRetryWaitMs, undefined);
});

Deno.test("transport errors name the full URL and never the key", async () => {
  await using server = startOpenAiServer({ chat: () => ({ status: 500, message: "boom" }) });
  const key = "sk-test-secret-4242";
  const client = new LlmClient({
    baseUrl: server.url,
    model: "m",
    apiKey: key,
    maxRetries: 0,
  });
  const [rec] = await client.chatMany([ask("q")]);
  assert.equal(rec.status, "failed");
  assert.equal(
    rec.error,
    `Failed after 1 attempt(s): HTTP 500 from ${server.url}/chat/completions: boom`,
  );
  // A refused connection: nothing listens on the port any more.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const refused = new LlmClient({
    baseUrl: `http://user:pw@127.0.0.1:${port}/v1?api-version=2024`,
    model: "m",
    apiKey: key,
    maxRetries: 0,
  });
  const [r2] = await refused.chatMany([ask("q")]);
  assert.equal(r2.status, "failed");
  assert.match(
    r2.error!,
    new RegExp(
      `^Failed after 1 attempt\\(s\\): Connection to http://127\\.0\\.0\\.1:${port}/v1/chat/completions failed \\(TypeError: `,
    ),
  );
  assert.ok(!r2.error!.includes(key) && !r2.error!.includes("pw"), r2.error);
});
