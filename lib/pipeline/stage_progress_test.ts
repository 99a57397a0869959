import assert from "node:assert/strict";
import type { ProgressEvent } from "@lib/llm/mod.ts";
import { stageProgress } from "./stage_progress.ts";

const event = (done: number, extra: Partial<ProgressEvent> = {}): ProgressEvent => ({
  step: "judge",
  done,
  total: 10,
  cached: 0,
  failed: 0,
  elapsedMs: 1000,
  rate: 1,
  etaMs: 1000,
  ...extra,
});

Deno.test("stageProgress: calls every interval, waits and job ends at once, a quiet stage still says it runs", () => {
  const lines: string[] = [];
  let t = 0;
  // 2026-12-07T04:00:00Z on the wall clock.
  const wall = Date.UTC(2026, 11, 7, 4, 0, 0);
  const p = stageProgress((s) => lines.push(s), {
    now: () => t,
    wallClock: () => wall + t,
    timer: false,
    intervalMs: 3000,
  });
  p.onEvent({ stage: "judge", message: "run-a: judging", id: "judge:x", starting: true });
  p.onEvent({ stage: "judge", message: "a note" }); // no id: a note, nothing follows it
  // Outside a stage instance, progress is throttled by step: the first at once, then every 3 s.
  p.onProgress(event(1));
  t = 1000;
  p.onProgress(event(2));
  t = 3000;
  p.onProgress(event(3));
  assert.equal(lines.length, 4);
  assert.match(lines[2], /^run: judge 1\/10 \(10\.0%\)/);
  assert.match(lines[3], /^run: judge 3\/10 \(30\.0%\)/);
  // A wait is said at once, with the time it ends (8 s from 04:00:03).
  t = 3100;
  p.onProgress(event(3, {
    waiting: {
      url: "http://h/v1/chat/completions",
      waitMs: 8000,
      retryAfterMs: 99_999_000,
      capped: true,
      reason: "HTTP 429 from http://h/v1/chat/completions: busy",
      attempt: 2,
    },
  }));
  assert.match(
    lines[4],
    /waiting 8\.0s \(until 04:00:11 UTC\) before attempt 2 at http:\/\/h\/v1\/chat\/completions; Retry-After 27h46m capped/,
  );
  // The stage instance started at 0 and said nothing of its own: at 3 s it still runs.
  p.tick();
  assert.equal(lines[5], "run: [judge:x] still running after 3s\n");
  p.tick(); // not again before another interval
  assert.equal(lines.length, 6);
  // The end of a job is said at once.
  t = 3200;
  p.onProgress(event(10));
  assert.equal(lines[6], "run: judge: 10/10 calls done\n");
  // The instance ends: no more lines for it.
  p.onEvent({ stage: "judge", message: "judge:x: 10 ratings", id: "judge:x" });
  t = 60_000;
  p.tick();
  assert.equal(lines.length, 8);
  p.close();
});
