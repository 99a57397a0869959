// Counts finished requests and turns them into progress events with rate and ETA.
import type { ProgressEvent, ProgressFn, RetryWait } from "./types.ts";

export class ProgressTracker {
  #done = 0;
  #cached = 0;
  #failed = 0;
  #started = performance.now();
  #waits = 0;
  #waitedMs = 0;
  constructor(
    readonly step: string,
    readonly total: number,
    readonly onProgress?: ProgressFn,
  ) {
    onProgress?.(this.#event());
  }
  finish(outcome: { cached: boolean; failed: boolean }): void {
    this.#done++;
    if (outcome.cached) this.#cached++;
    if (outcome.failed) this.#failed++;
    this.onProgress?.(this.#event());
  }
  /** Counts a wait before a retry and announces it at once. */
  wait(w: RetryWait): void {
    this.#waits++;
    this.#waitedMs += w.waitMs;
    this.onProgress?.({ ...this.#event(), waiting: w });
  }
  #event(): ProgressEvent {
    const elapsedMs = performance.now() - this.#started;
    const sent = this.#done - this.#cached;
    const rate = elapsedMs > 0 ? sent / (elapsedMs / 1000) : 0;
    const left = this.total - this.#done;
    const etaMs = left === 0 ? 0 : rate > 0 ? (left / rate) * 1000 : NaN;
    return {
      step: this.step,
      done: this.#done,
      total: this.total,
      cached: this.#cached,
      failed: this.#failed,
      elapsedMs,
      rate,
      etaMs,
      ...(this.#waits ? { waits: { count: this.#waits, totalMs: this.#waitedMs } } : {}),
    };
  }
}
