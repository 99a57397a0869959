import assert from "node:assert/strict";
import { RateLimiter, Semaphore } from "./_limiter.ts";

const stop = () => new DOMException("stop", "AbortError");

Deno.test("Semaphore.acquire rejects on abort, leaves the queue, and never takes the slot", async () => {
  const sem = new Semaphore(1);
  await sem.acquire();
  const controller = new AbortController();
  const order: string[] = [];
  const aborted = sem.acquire(controller.signal).then(() => order.push("aborted got a slot"));
  const next = sem.acquire().then(() => order.push("next"));
  controller.abort(stop());
  await assert.rejects(aborted, { name: "AbortError", message: "stop" });
  sem.release();
  await next;
  assert.deepEqual(order, ["next"], "the slot goes past the aborted waiter");
  sem.release();
  assert.equal(sem.free, 1, "no slot is lost");
});

Deno.test("Semaphore.acquire with an aborted signal rejects even when a slot is free", async () => {
  const sem = new Semaphore(2);
  await assert.rejects(sem.acquire(AbortSignal.abort(stop())), { name: "AbortError" });
  assert.equal(sem.free, 2);
});

Deno.test("Semaphore.acquire ignores a later abort once it holds the slot", async () => {
  const sem = new Semaphore(1);
  await sem.acquire();
  const controller = new AbortController();
  const waiting = sem.acquire(controller.signal);
  sem.release();
  await waiting;
  controller.abort(stop());
  assert.equal(sem.free, 0, "the holder keeps its slot until it releases");
  sem.release();
  assert.equal(sem.free, 1);
});

Deno.test("RateLimiter.take gives back the reservation of an aborted waiter", async () => {
  let now = 0;
  // 60 per minute: one per second, burst of one second.
  const limiter = new RateLimiter(60, () => now);
  await limiter.take(1); // starts at 0, next free start at 0 (burst)
  await limiter.take(1); // starts at 0, next at 1000
  const controller = new AbortController();
  const waits = [1, 2, 3].map(() => limiter.take(1, controller.signal));
  controller.abort(stop());
  for (const w of waits) await assert.rejects(w, { name: "AbortError" });
  // Without refunds the next start would be at 4000 ms.
  now = 1000;
  await limiter.take(1);
  await assert.rejects(limiter.take(1, AbortSignal.abort(stop())), { name: "AbortError" });
  now = 2000;
  const t0 = performance.now();
  await limiter.take(1);
  assert.ok(performance.now() - t0 < 50, "starts at once: the aborted take reserved nothing");
});
