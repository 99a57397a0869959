import assert from "node:assert/strict";
import { openAiTransport } from "./_transport.ts";
import { TransportError } from "./_retry.ts";

Deno.test("openAiTransport.post sends nothing when the signal is already aborted", async () => {
  let calls = 0;
  const t = openAiTransport({
    baseUrl: "http://127.0.0.1:9/v1",
    fetch: (() => (calls++, Promise.resolve(new Response("{}")))) as typeof fetch,
  });
  const signal = AbortSignal.abort(new DOMException("stop", "AbortError"));
  await assert.rejects(t.post("/score", {}, { signal, timeoutMs: 1000 }), { name: "AbortError" });
  assert.equal(calls, 0);
});

Deno.test("openAiTransport.post turns its own timeout into a retryable error and clears it", async () => {
  const t = openAiTransport({
    baseUrl: "http://127.0.0.1:9/v1",
    fetch: ((_url: string, init: RequestInit) =>
      new Promise((_, reject) =>
        init.signal!.addEventListener("abort", () =>
          reject(init.signal!.reason))
      )) as typeof fetch,
  });
  const error = await t.post("/score", {}, { timeoutMs: 20 }).catch((e) => e);
  assert.ok(error instanceof TransportError);
  assert.deepEqual([error.failure.retryable, error.message], [
    true,
    "Request to http://127.0.0.1:9/v1/score timed out after 20 ms",
  ]);
});
