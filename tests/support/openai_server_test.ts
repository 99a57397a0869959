import assert from "node:assert/strict";
import { startOpenAiServer } from "./openai_server.ts";
import { startOpenAiServerInWorker } from "./openai_server_worker.ts";

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const chat = (content: string) => ({ model: "m", messages: [{ role: "user", content }] });

Deno.test("test server: chat answers, errors with Retry-After, drops, malformed bodies and counts", async () => {
  await using server = startOpenAiServer({
    latencyMs: 1,
    chat: (_req, { key, count }) => {
      if (key === "limit" && count === 1) return { status: 429, retryAfter: 2 };
      if (key === "drop") return { drop: true };
      if (key === "junk") return { malformedBody: "<html>" };
      return { content: `hello ${key} #${count}` };
    },
  });
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const models = await (await fetch(`${server.url}/models`)).json();
  assert.equal(models.data[0].id, "test-model");
  const limited = await post(`${server.url}/chat/completions`, chat("limit"));
  assert.deepEqual([limited.status, limited.headers.get("retry-after")], [429, "2"]);
  await limited.body?.cancel();
  const ok = await (await post(`${server.url}/chat/completions`, chat("limit"))).json();
  assert.equal(ok.choices[0].message.content, "hello limit #2");
  assert.deepEqual(ok.usage, { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 });
  await assert.rejects(async () =>
    await (await post(`${server.url}/chat/completions`, chat("drop"))).text()
  );
  const junk = await post(`${server.url}/chat/completions`, chat("junk"));
  assert.equal(await junk.text(), "<html>");
  assert.deepEqual([server.countFor("limit"), server.countFor("drop"), server.countFor("junk")], [
    2,
    1,
    1,
  ]);
  assert.deepEqual(server.log.map((e) => [e.key, e.status, e.answered]), [
    ["limit", 429, false],
    ["limit", 200, true],
    ["drop", 0, false],
    ["junk", 200, false],
  ]);
  assert.equal(server.requests, 5);
  server.reset();
  assert.deepEqual([server.requests, server.counts.size, server.log.length], [0, 0, 0]);
});

Deno.test("test server: the most chat requests open at once", async () => {
  await using server = startOpenAiServer({ latencyMs: 30 });
  const ask = async (content: string) =>
    await (await post(`${server.url}/chat/completions`, chat(content))).json();
  await Promise.all(["a", "b", "c", "d", "e"].map(ask));
  assert.equal(server.peakInFlight, 5);
  server.reset();
  assert.equal(server.peakInFlight, 0);
  await ask("f");
  await ask("g");
  assert.equal(server.peakInFlight, 1);
});

Deno.test("test server: API key check, embeddings, rerank and score", async () => {
  await using server = startOpenAiServer({ apiKey: "k1", embed: (t) => [t.length] });
  const denied = await post(`${server.url}/embeddings`, { model: "e", input: ["a"] });
  assert.equal(denied.status, 401);
  await denied.body?.cancel();
  const auth = { authorization: "Bearer k1" };
  const emb =
    await (await post(`${server.url}/embeddings`, { model: "e", input: ["ab", "c"] }, auth)).json();
  assert.deepEqual(emb.data.map((d: { embedding: number[] }) => d.embedding), [[2], [1]]);
  const rr = await (await post(`${server.url}/rerank`, {
    model: "r",
    query: "red car",
    documents: ["blue", "red car"],
  }, auth)).json();
  assert.deepEqual(rr.results, [{ index: 1, relevance_score: 1 }, {
    index: 0,
    relevance_score: 0,
  }]);
  const sc = await (await post(
    `${server.url}/score`,
    { model: "r", text_1: "red car", text_2: ["red"] },
    auth,
  )).json();
  assert.deepEqual(sc.data, [{ index: 0, object: "score", score: 0.5 }]);
});

Deno.test("test server in a worker: named rule, stats and clean stop", async () => {
  await using server = await startOpenAiServerInWorker({
    rule: { module: new URL("../llm/_fixtures.ts", import.meta.url).href, name: "ratingRule" },
  });
  const res = await (await post(
    `${server.url}/chat/completions`,
    chat("What happened to item number 4 in the ledger?"),
  )).json();
  assert.equal(res.choices[0].message.content, "4");
  const stats = await server.stats();
  assert.equal(stats.requests, 1);
  assert.equal(stats.counts.get("What happened to item number 4 in the ledger?"), 1);
});

Deno.test("test server: scripted log-probabilities, default tokens, and an endpoint without them", async () => {
  const scripted = [
    { token: "[", logprob: -0.01, top: [{ token: "[", logprob: -0.01 }] },
    {
      token: "B",
      logprob: -0.2,
      top: [{ token: "B", logprob: -0.2 }, { token: "A", logprob: -1.9 }, {
        token: "C",
        logprob: -3,
      }],
    },
  ];
  await using server = startOpenAiServer({
    chat: (req) => ({ content: "[B] > [A]", logprobs: req.seed === 1 ? undefined : scripted }),
  });
  const ask = async (url: string, extra: Record<string, unknown>) =>
    (await (await post(`${url}/chat/completions`, { ...chat("rank"), ...extra })).json())
      .choices[0].logprobs;
  const two = await ask(server.url, { logprobs: true, top_logprobs: 2 });
  assert.deepEqual(
    two.content.map((t: { token: string; logprob: number; top_logprobs: { token: string }[] }) => [
      t.token,
      t.logprob,
      t.top_logprobs.map((a) => a.token),
    ]),
    [["[", -0.01, ["["]], ["B", -0.2, ["B", "A"]]],
  );
  assert.deepEqual(two.content[1].bytes, [66]);
  assert.equal(await ask(server.url, {}), null, "not asked: no logprobs");
  const plain = await ask(server.url, { logprobs: true, top_logprobs: 1, seed: 1 });
  assert.deepEqual(plain.content.map((t: { token: string }) => t.token), [
    "[",
    "B",
    "]",
    " >",
    " [",
    "A",
    "]",
  ]);
  assert.deepEqual(plain.content[3].top_logprobs, [{ token: " >", logprob: 0, bytes: [32, 62] }]);
  await using bare = startOpenAiServer({
    logprobs: false,
    chat: () => ({ content: "[B] > [A]", logprobs: scripted }),
  });
  assert.equal(await ask(bare.url, { logprobs: true, top_logprobs: 2 }), null);
});

Deno.test("test server: words are counted as runs of non-space, as splitting on \\s does", async () => {
  const { words } = await import("./openai_server.ts");
  const cases = [
    "",
    "   ",
    "one",
    " two  words ",
    "tab\tnew\nline\r\nvt\u000bff\u000c",
    "nbsp\u00a0thin\u2009ideo\u3000bom\ufeffend",
    "lorem ipsum dolor sit amet ".repeat(50),
    "é ü ß 汉字 😀 x",
  ];
  for (const text of cases) {
    assert.equal(words(text), text.split(/\s+/).filter(Boolean).length, JSON.stringify(text));
  }
  assert.equal(words(" two  words "), 2);
  assert.equal(words("a\u00a0b"), 2);
});

Deno.test("test server: latency counts from the request's arrival, the rule's work included", async () => {
  await using server = startOpenAiServer({
    latencyMs: 500,
    // A rule that takes 300 ms: the reply still leaves 500 ms after arrival, not 800.
    chat: async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { content: "ok" };
    },
  });
  const send = async () => {
    const t0 = performance.now();
    const res = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "q" }] }),
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();
    return performance.now() - t0;
  };
  const ms = await send();
  assert.ok(ms >= 495, `replied after ${ms.toFixed(0)} ms, before the latency`);
  assert.ok(ms < 750, `replied after ${ms.toFixed(0)} ms: the rule's 300 ms were added`);
  // A rule slower than the latency: the reply leaves as soon as the rule is done.
  await using slow = startOpenAiServer({
    latencyMs: 300,
    chat: async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      return { content: "ok" };
    },
  });
  const t0 = performance.now();
  const res = await fetch(`${slow.url}/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "q" }] }),
  });
  await res.body?.cancel();
  const slowMs = performance.now() - t0;
  assert.ok(slowMs >= 495 && slowMs < 720, `slow rule replied after ${slowMs.toFixed(0)} ms`);
});
