/**
 * What a run of stages says while it works: each stage event; for each running
 * stage instance, the progress of its model calls at most every few seconds;
 * a wait before a retry at once, with the endpoint and the time it ends; and,
 * for an instance that has said nothing for a while (a long wait, a stage
 * without model calls), a line that it still runs.
 *
 * @module
 */
import {
  clockIn,
  formatDuration,
  formatProgress,
  type ProgressEvent,
  type ProgressFn,
} from "@lib/llm/mod.ts";
import { currentStage, type StageEvent } from "./run_stages.ts";

/** Options of {@linkcode stageProgress}. */
export interface StageProgressOptions {
  /**
   * Longest silence of a running instance, and least time between two progress
   * lines of one instance, in ms (default 3,000). Waits and finished jobs are
   * written at once.
   */
  intervalMs?: number;
  /** Monotonic clock in ms (default `performance.now`). */
  now?: () => number;
  /** Wall clock in ms, for the time a wait ends (default `Date.now`). */
  wallClock?: () => number;
  /** Check for quiet instances on a timer (default true); without it, call `tick`. */
  timer?: boolean;
  /** Text put before every line (default `run: `). */
  prefix?: string;
}

/** The callbacks of {@linkcode stageProgress}, and the timer to stop. */
export interface StageProgress extends Disposable {
  /**
   * Writes a stage event (`[stage] message`) and follows which instances run
   * (by `id`: from the event with `starting` to the next one; an event without
   * an id is a note).
   */
  onEvent: (event: Pick<StageEvent, "stage" | "message" | "starting"> & { id?: string }) => void;
  /** Writes model-call progress of the instance calling ({@linkcode currentStage}). */
  onProgress: ProgressFn;
  /** Writes a line for each running instance silent for the interval (the timer calls it). */
  tick: () => void;
  /** Stops the timer. */
  close: () => void;
}

interface Running {
  started: number;
  said: number;
  last?: ProgressEvent;
  /** Wall-clock time the last announced wait ends. */
  waitEnds?: number;
}

/**
 * Progress of a run of stages for a log or a terminal, one line at a time
 * (written to `write`, e.g. stderr). A stage instance that runs says something
 * at least every `intervalMs`: its calls' progress when it makes calls, else
 * that it still runs (and, during a wait before a retry, until when).
 *
 * @param write Sink for text (each call is whole lines).
 * @param opts `intervalMs` (default 3,000), `now`, `wallClock`, `timer`, `prefix`.
 * @returns The callbacks to pass to the run, and `close` (or `using`) to stop the timer.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageProgress } from "@lib/pipeline/mod.ts";
 * const lines: string[] = [];
 * let t = 0;
 * using progress = stageProgress((s) => lines.push(s), { now: () => t, timer: false });
 * progress.onEvent({ id: "retrieve:bm25", stage: "retrieve", message: "new", starting: true });
 * t = 3500;
 * progress.tick();
 * assert.deepEqual(lines, ["run: [retrieve] new\n", "run: [retrieve:bm25] still running after 4s\n"]);
 * ```
 */
export function stageProgress(
  write: (text: string) => void,
  opts: StageProgressOptions = {},
): StageProgress {
  const interval = opts.intervalMs ?? 3000;
  const now = opts.now ?? (() => performance.now());
  const wall = opts.wallClock ?? (() => Date.now());
  const prefix = opts.prefix ?? "run: ";
  const running = new Map<string, Running>();
  const loose = new Map<string, Running>();
  const fresh = (): Running => ({ started: now(), said: -Infinity });
  const entry = (id: string): Running => {
    let r = running.get(id);
    if (!r) running.set(id, r = fresh());
    return r;
  };
  const tick = () => {
    const t = now();
    for (const [id, r] of running) {
      if (t - r.said < interval) continue;
      r.said = t;
      const calls = r.last && r.last.done < r.last.total
        ? `: ${r.last.step} ${r.last.done}/${r.last.total} calls` +
          (r.last.failed ? `, ${r.last.failed} failed` : "") +
          (r.last.waits ? `, ${r.last.waits.count} retry waits` : "")
        : "";
      const ends = r.waitEnds !== undefined && r.waitEnds > wall()
        ? `; a retry waits until ${clockIn(0, r.waitEnds)}`
        : "";
      write(
        `${prefix}[${id}] still running after ${formatDuration(t - r.started)}${calls}${ends}\n`,
      );
    }
  };
  const timer = opts.timer === false ? undefined : setInterval(tick, Math.min(interval, 1000));
  if (timer !== undefined) Deno.unrefTimer(timer);
  const close = () => {
    if (timer !== undefined) clearInterval(timer);
  };
  return {
    onEvent: (e) => {
      write(`${prefix}[${e.stage}] ${e.message}\n`);
      if (e.id === undefined) return;
      if (e.starting) running.set(e.id, { ...fresh(), said: now() });
      else running.delete(e.id);
    },
    onProgress: (p) => {
      const stage = currentStage();
      // Outside a stage instance, progress is throttled alike but never said to run on.
      const r = stage === undefined
        ? (loose.get(p.step) ?? loose.set(p.step, fresh()).get(p.step)!)
        : entry(stage);
      const t = now();
      const where = stage ? `[${stage}] ` : "";
      r.last = p;
      if (p.waiting) {
        const clock = wall();
        r.waitEnds = clock + p.waiting.waitMs;
        r.said = t;
        write(`${prefix}${where}${formatProgress(p, clock)}\n`);
      } else if (p.done >= p.total) {
        r.said = t;
        write(`${prefix}${where}${p.step}: ${p.done}/${p.total} calls done\n`);
      } else if (t - r.said >= interval) {
        r.said = t;
        write(`${prefix}${where}${formatProgress(p)}\n`);
      }
    },
    tick,
    close,
    [Symbol.dispose]: close,
  };
}
