import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { CallCache, type StoredCall } from "./call_cache.ts";

const call = (key: string, over: Partial<StoredCall> = {}): StoredCall => ({
  key,
  model: "m",
  endpoint: "http://h/v1 chat",
  template: "answerability@1",
  params: { temperature: 0 },
  messages: [{ role: "user", content: `q ${key}` }],
  response: "4",
  usage: { promptTokens: 10, completionTokens: 1 },
  status: "ok",
  attempts: 1,
  latencyMs: 50,
  ...over,
});

async function openMemory() {
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  return {
    cache: await CallCache.open(connection),
    close: () => (connection.closeSync(), db.closeSync()),
  };
}

Deno.test("CallCache stores, replaces and reads calls", async () => {
  const { cache, close } = await openMemory();
  await cache.put(call("a"));
  await cache.put(call("b", { status: "failed", response: "", error: "HTTP 500", attempts: 3 }));
  assert.deepEqual(await cache.get("a"), { ...call("a"), error: undefined });
  await cache.put(call("b", { response: "2", attempts: 4 }));
  const got = await cache.getMany(["a", "b", "missing", "a"]);
  assert.deepEqual([...got.keys()].sort(), ["a", "b"]);
  assert.equal(got.get("b")!.response, "2");
  assert.equal(got.get("b")!.attempts, 4);
  assert.equal(got.get("b")!.status, "ok");
  close();
});

Deno.test("CallCache commits concurrent puts in groups, each settled after its commit", async () => {
  const { cache, close } = await openMemory();
  await Promise.all(Array.from({ length: 50 }, (_, i) => cache.put(call(`k${i}`))));
  assert.ok(cache.commits < 50, `${cache.commits} commits for 50 puts`);
  assert.equal((await cache.getMany(Array.from({ length: 50 }, (_, i) => `k${i}`))).size, 50);
  await cache.putMany(Array.from({ length: 450 }, (_, i) => call(`m${i}`)));
  const reader = await cache.connection.runAndReadAll(
    "SELECT count(*)::INTEGER AS n FROM llm_calls",
  );
  assert.equal(reader.getRowObjectsJS()[0].n, 500);
  close();
});

Deno.test("CallCache.stats sums calls, tokens and hits per model, template and status", async () => {
  const { cache, close } = await openMemory();
  await cache.put(call("a"));
  await cache.put(call("b", { usage: { promptTokens: 5, completionTokens: 2 }, attempts: 2 }));
  await cache.put(
    call("c", { status: "failed", usage: { promptTokens: 0, completionTokens: 0 }, attempts: 3 }),
  );
  await cache.put(call("d", { model: "other", template: undefined }));
  await cache.addHits("m", "answerability@1", 3);
  await cache.addHits("m", "answerability@1", 4);
  assert.deepEqual(await cache.stats(), [
    {
      model: "m",
      template: "answerability@1",
      status: "failed",
      calls: 1,
      attempts: 3,
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: 50,
      hits: 7,
    },
    {
      model: "m",
      template: "answerability@1",
      status: "ok",
      calls: 2,
      attempts: 3,
      promptTokens: 15,
      completionTokens: 3,
      latencyMs: 100,
      hits: 7,
    },
    {
      model: "other",
      template: "",
      status: "ok",
      calls: 1,
      attempts: 1,
      promptTokens: 10,
      completionTokens: 1,
      latencyMs: 50,
      hits: 0,
    },
  ]);
  close();
});

Deno.test("CallCache.getMany without messages: the same calls, prompts left out", async () => {
  const db = await DuckDBInstance.create(":memory:");
  const cache = await CallCache.open(await db.connect());
  await cache.putMany([call("a"), call("b", { status: "failed", error: "HTTP 500" })]);
  const full = await cache.getMany(["a", "b", "missing"]);
  const lean = await cache.getMany(["a", "b", "missing"], { messages: false });
  assert.deepEqual([...lean.keys()].sort(), ["a", "b"]);
  for (const key of ["a", "b"]) {
    assert.notEqual(full.get(key)!.messages, null);
    assert.equal(lean.get(key)!.messages, null);
    assert.deepEqual({ ...lean.get(key)!, messages: full.get(key)!.messages }, full.get(key));
  }
});
