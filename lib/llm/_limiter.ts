// Concurrency and rate limits for the call runner. No polling: each waiter is
// woken by a release or by one timer computed from the limit.
import { delay } from "./_retry.ts";

/** A counting semaphore with FIFO waiters. */
export class Semaphore {
  #free: number;
  #waiters: (() => void)[] = [];
  constructor(slots: number) {
    this.#free = slots;
  }
  acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#free++;
  }
}

/**
 * Spaces out requests so that at most `perMinute` units (requests or tokens)
 * start in any minute, allowing a burst of one second's worth. Each caller
 * reserves its slot at once (generic cell rate algorithm) and waits with a
 * single timer.
 */
export class RateLimiter {
  #intervalMs: number;
  #burstMs: number;
  #tat = 0;
  constructor(perMinute: number, private readonly now: () => number = () => performance.now()) {
    this.#intervalMs = 60_000 / perMinute;
    this.#burstMs = Math.max(1000, this.#intervalMs);
  }
  /** Waits until `units` may start; rejects when the signal aborts. */
  take(units: number, signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const start = Math.max(now, this.#tat - this.#burstMs);
    this.#tat = Math.max(this.#tat, now) + units * this.#intervalMs;
    return start > now ? delay(start - now, signal) : Promise.resolve();
  }
}
