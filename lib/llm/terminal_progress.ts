// A progress renderer for terminals: one line redrawn in place, or lines when not a terminal.

import type { ProgressEvent, ProgressFn } from "./types.ts";
import { progressLine } from "./_progress_line.ts";

/**
 * The one-line text of a progress event, as the renderers write it: counts,
 * rate, ETA, retry waits, and a wait that just began with its length, the time
 * it ends, the URL and the server's Retry-After.
 *
 * @param e The event.
 * @param now Wall clock in ms (default `Date.now()`), for the time a wait ends.
 * @returns The line, without a newline.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatProgress } from "@lib/llm/mod.ts";
 * const e = { step: "judge", done: 1, total: 4, cached: 0, failed: 0, elapsedMs: 2000, rate: 0.5, etaMs: 6000 };
 * assert.equal(formatProgress(e), "judge 1/4 (25.0%)  cached 0  failed 0  0.5/s  ETA 6s");
 * ```
 */
export function formatProgress(e: ProgressEvent, now?: number): string {
  return progressLine(e, now);
}

/**
 * A progress renderer for terminals. On a TTY the line is redrawn in place
 * (carriage return + clear line) at most every `intervalMs`; otherwise a full
 * line is written at most every `intervalMs` (default 5 s off a TTY). The final
 * event (done = total) is always written and ends the line.
 *
 * @param write Sink for text, e.g. `io.err`.
 * @param opts `isTty` (default false), `intervalMs` (default 100 on a TTY, 5000 otherwise),
 *   `now` (clock, default `performance.now`).
 * @returns A progress callback for the LLM layer.
 * @example
 * ```ts
 * import { lexicalJudge, terminalProgress } from "@lib/llm/mod.ts";
 * const enc = new TextEncoder();
 * const onProgress = terminalProgress((t) => Deno.stderr.writeSync(enc.encode(t)), {
 *   isTty: Deno.stderr.isTerminal(),
 * });
 * const judge = lexicalJudge();
 * const pairs = [{ id: "1", question: "Who won the race?", context: "Ann won the race." }];
 * await judge.rate(pairs, { onProgress });
 * ```
 */
export function terminalProgress(
  write: (text: string) => void,
  opts: { isTty?: boolean; intervalMs?: number; now?: () => number } = {},
): ProgressFn {
  const tty = opts.isTty ?? false;
  const interval = opts.intervalMs ?? (tty ? 100 : 5000);
  const now = opts.now ?? (() => performance.now());
  let last = -Infinity;
  let finished = false;
  return (e: ProgressEvent) => {
    const end = e.done >= e.total;
    if (end && finished) return;
    const t = now();
    // A wait before a retry is announced at once, whatever the interval.
    if (!end && !e.waiting && t - last < interval) return;
    last = t;
    finished = end;
    const line = progressLine(e);
    // A wait keeps its own line, so the redraws that follow do not hide it.
    write(tty ? `\r\x1b[K${line}${end || e.waiting ? "\n" : ""}` : `${line}\n`);
  };
}
