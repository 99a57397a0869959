// Concurrency and rate limits for the call runner. No polling: each waiter is
// woken by a release or by one timer computed from the limit.
import { delay } from "./_retry.ts";

/**
 * A counting semaphore with FIFO waiters. A waiter whose signal aborts leaves
 * the queue and rejects with the signal's reason, so it never takes a slot.
 */
export class Semaphore {
  #free: number;
  #waiters: (() => void)[] = [];
  constructor(slots: number) {
    this.#free = slots;
  }
  /** Free slots right now (for tests and diagnostics). */
  get free(): number {
    return this.#free;
  }
  /** Waits for a slot; rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        this.#waiters.splice(this.#waiters.indexOf(wake), 1);
        reject(signal?.reason);
      };
      this.#waiters.push(wake);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
  /** Hands the slot to the oldest waiter, or frees it. */
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
  /**
   * Waits until `units` may start; rejects when the signal aborts, and then gives
   * the reservation back so cancelled callers do not delay later ones.
   */
  async take(units: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const now = this.now();
    const start = Math.max(now, this.#tat - this.#burstMs);
    const cost = units * this.#intervalMs;
    this.#tat = Math.max(this.#tat, now) + cost;
    if (start <= now) return;
    try {
      await delay(start - now, signal);
    } catch (error) {
      this.#tat -= cost;
      throw error;
    }
  }
}
