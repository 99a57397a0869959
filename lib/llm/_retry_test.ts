import assert from "node:assert/strict";
import { backoffMs, delay } from "./_retry.ts";

Deno.test("backoffMs uses equal jitter: between half the capped exponential and all of it", () => {
  const at = (attempt: number, r: number, retryAfterMs?: number) =>
    backoffMs(attempt, { baseMs: 100, maxMs: 1000, random: () => r, retryAfterMs });
  assert.deepEqual([at(1, 0), at(1, 0.5), at(1, 1)], [50, 75, 100]);
  assert.deepEqual([at(3, 0), at(3, 1)], [200, 400]);
  assert.deepEqual([at(10, 0), at(10, 1)], [500, 1000], "capped at maxMs");
  assert.equal(at(1, 0, 2500), 2500, "never shorter than Retry-After");
  assert.equal(at(3, 1, 10), 400, "a shorter Retry-After does not shorten the backoff");
});

Deno.test("delay rejects with the abort reason and clears its timer", async () => {
  const controller = new AbortController();
  const waiting = delay(10_000, controller.signal);
  controller.abort(new DOMException("stop", "AbortError"));
  await assert.rejects(waiting, { name: "AbortError", message: "stop" });
  await assert.rejects(delay(5, AbortSignal.abort(new RangeError("x"))), RangeError);
});
