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
    return progressEvent(this.step, this.total, this.#started, {
      done: this.#done,
      cached: this.#cached,
      failed: this.#failed,
      waits: this.#waits,
      waitedMs: this.#waitedMs,
    });
  }
}

/** Counts of a job's finished requests and retry waits. */
export interface ProgressCounts {
  done: number;
  cached: number;
  failed: number;
  waits: number;
  waitedMs: number;
}

/** The progress event of a job started at `started` (rate of sent requests, ETA from it). */
export function progressEvent(
  step: string,
  total: number,
  started: number,
  c: ProgressCounts,
): ProgressEvent {
  const elapsedMs = performance.now() - started;
  const sent = c.done - c.cached;
  const rate = elapsedMs > 0 ? sent / (elapsedMs / 1000) : 0;
  const left = total - c.done;
  const etaMs = left === 0 ? 0 : rate > 0 ? (left / rate) * 1000 : NaN;
  return {
    step,
    done: c.done,
    total,
    cached: c.cached,
    failed: c.failed,
    elapsedMs,
    rate,
    etaMs,
    ...(c.waits ? { waits: { count: c.waits, totalMs: c.waitedMs } } : {}),
  };
}
