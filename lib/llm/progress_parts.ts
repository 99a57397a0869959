/**
 * Progress of one job sent as several `chatMany` calls (slices of a long list),
 * reported as one: counts run over every part, against the job's total.
 *
 * @module
 */
import type { ProgressEvent, ProgressFn } from "./types.ts";
import { type ProgressCounts, progressEvent } from "./_progress_tracker.ts";

/** No request finished, no wait. */
const NONE: ProgressCounts = { done: 0, cached: 0, failed: 0, waits: 0, waitedMs: 0 };

/** Counts of two parts together (`sign` -1: the first less the second). */
function sum(a: ProgressCounts, b: ProgressCounts, sign = 1): ProgressCounts {
  return {
    done: a.done + sign * b.done,
    cached: a.cached + sign * b.cached,
    failed: a.failed + sign * b.failed,
    waits: a.waits + sign * b.waits,
    waitedMs: a.waitedMs + sign * b.waitedMs,
  };
}

/**
 * Joins the progress of a job's parts: pass {@linkcode ProgressParts.part} as
 * the `onProgress` of each part's `chatMany`, one part after the other or
 * several at once. Events count done, cached and failed requests and retry
 * waits over all parts so far, with the job's total, rate and ETA.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProgressParts, type ProgressEvent } from "@lib/llm/mod.ts";
 * const seen: ProgressEvent[] = [];
 * const parts = new ProgressParts((e) => seen.push(e), 5);
 * const first = parts.part()!;
 * first({ step: "s", done: 3, total: 3, cached: 1, failed: 0, elapsedMs: 1, rate: 1, etaMs: 0 });
 * const second = parts.part()!;
 * second({ step: "s", done: 2, total: 2, cached: 0, failed: 1, elapsedMs: 1, rate: 1, etaMs: 0 });
 * assert.deepEqual([seen[1].done, seen[1].total, seen[1].cached, seen[1].failed], [5, 5, 1, 1]);
 * ```
 */
export class ProgressParts {
  readonly #onProgress?: ProgressFn;
  readonly #total: number;
  readonly #started = performance.now();
  /** Counts of every part so far: each part's event adds what changed since its last. */
  #counts: ProgressCounts = NONE;

  /**
   * @param onProgress Receives the job's events; undefined: no events.
   * @param total Requests of the whole job.
   */
  constructor(onProgress: ProgressFn | undefined, total: number) {
    this.#onProgress = onProgress;
    this.#total = total;
  }

  /**
   * Starts the next part.
   *
   * @returns The `onProgress` for the part's `chatMany` (undefined without a receiver).
   */
  part(): ProgressFn | undefined {
    const on = this.#onProgress;
    if (!on) return undefined;
    let last = NONE;
    return (e: ProgressEvent) => {
      const now = {
        done: e.done,
        cached: e.cached,
        failed: e.failed,
        waits: e.waits?.count ?? 0,
        waitedMs: e.waits?.totalMs ?? 0,
      };
      this.#counts = sum(this.#counts, sum(now, last, -1));
      last = now;
      const joined = progressEvent(e.step, this.#total, this.#started, this.#counts);
      on(e.waiting ? { ...joined, waiting: e.waiting } : joined);
    };
  }
}
