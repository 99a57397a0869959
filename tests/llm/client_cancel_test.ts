// Cancelling calls must hand back every limit the client holds: after any number
// of aborted calls (on the wire, waiting for a slot, or waiting for a rate
// limit) the client still sends.
import assert from "node:assert/strict";
import { startOpenAiServer } from "../support/openai_server.ts";
import { LlmClient } from "../../lib/llm/llm_client.ts";
import type { ChatRequest } from "../../lib/llm/types.ts";

const ask = (content: string): ChatRequest => ({ messages: [{ role: "user", content }] });

/** Resolves with the promise's outcome, or with "timed out" after `ms`. */
async function within<T>(ms: number, p: Promise<T>): Promise<T | "timed out"> {
  let id: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timed out">((r) => id = setTimeout(() => r("timed out"), ms));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(id);
  }
}

const stop = () => new DOMException("stop", "AbortError");

Deno.test("LlmClient keeps sending after repeated aborted calls on the wire", async () => {
  await using server = startOpenAiServer({ latencyMs: 200 });
  const client = new LlmClient({ baseUrl: server.url, model: "m", concurrency: 1 });
  // Concurrency 1 holds at most 4 calls between sending and committing: rounds
  // 5 and 6 hung when an abort kept its place.
  for (let round = 1; round <= 6; round++) {
    const controller = new AbortController();
    setTimeout(() => controller.abort(stop()), 50);
    const outcome = await within(
      2000,
      client.chatMany([ask(`round ${round}`)], { signal: controller.signal }).then(
        () => "answered",
        (e: Error) => e.name,
      ),
    );
    assert.equal(outcome, "AbortError", `round ${round}`);
  }
  const [rec] = await client.chatMany([ask("after")]);
  assert.deepEqual([rec.status, rec.text], ["ok", "ok"]);
  assert.equal(server.countFor("after"), 1);
});

Deno.test("LlmClient aborts calls waiting for a request slot and frees their places", async () => {
  await using server = startOpenAiServer({ latencyMs: 300 });
  const client = new LlmClient({ baseUrl: server.url, model: "m", concurrency: 1 });
  const busy = client.chat(ask("busy"));
  const controller = new AbortController();
  // Eight calls queue behind "busy": four wait for a slot, four for a commit place.
  const waiting = client.chatMany(Array.from({ length: 8 }, (_, i) => ask(`w${i}`)), {
    signal: controller.signal,
  });
  setTimeout(() => controller.abort(stop()), 50);
  const t0 = performance.now();
  await assert.rejects(waiting, { name: "AbortError" });
  assert.ok(performance.now() - t0 < 250, "the queued calls stop at once, not when a slot frees");
  assert.equal((await busy).status, "ok");
  const recs = await within(2000, client.chatMany([ask("a"), ask("b"), ask("c"), ask("d")]));
  assert.notEqual(recs, "timed out");
  assert.deepEqual((recs as { status: string }[]).map((r) => r.status), ["ok", "ok", "ok", "ok"]);
  for (let i = 0; i < 8; i++) assert.equal(server.countFor(`w${i}`), 0, `w${i} was never sent`);
});

Deno.test("LlmClient gives back rate-limit reservations of calls aborted while waiting", async () => {
  await using server = startOpenAiServer();
  // 60 per minute: one per second after a burst of one.
  const client = new LlmClient({ baseUrl: server.url, model: "m", rpm: 60 });
  await client.chat(ask("first"));
  const controller = new AbortController();
  const waiting = client.chatMany(Array.from({ length: 20 }, (_, i) => ask(`w${i}`)), {
    signal: controller.signal,
  });
  setTimeout(() => controller.abort(stop()), 20);
  await assert.rejects(waiting, { name: "AbortError" });
  // Without the refund the next call waits behind 20 cancelled reservations (20 s).
  const t0 = performance.now();
  const rec = await within(3000, client.chat(ask("next")));
  assert.notEqual(rec, "timed out");
  assert.ok(performance.now() - t0 < 1500, `took ${performance.now() - t0} ms`);
});
