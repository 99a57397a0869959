import assert from "node:assert/strict";
import { terminalProgress } from "./terminal_progress.ts";
import type { ProgressEvent } from "./types.ts";

const ev = (done: number, over: Partial<ProgressEvent> = {}): ProgressEvent => ({
  step: "answerability",
  done,
  total: 200,
  cached: 20,
  failed: 1,
  elapsedMs: 10_000,
  rate: 8,
  etaMs: 25_000,
  ...over,
});

Deno.test("terminalProgress redraws in place on a TTY and throttles", () => {
  let out = "";
  let t = 0;
  const p = terminalProgress((s) => (out += s), { isTty: true, intervalMs: 100, now: () => t });
  p(ev(50));
  t = 50;
  p(ev(60)); // throttled
  t = 150;
  p(ev(100, { etaMs: 90_500 }));
  p(ev(200, { etaMs: 0, elapsedMs: 65_000 }));
  p(ev(200, { etaMs: 0 })); // after the end: ignored
  assert.equal(
    out,
    "\r\x1b[Kanswerability 50/200 (25.0%)  cached 20  failed 1  8.0/s  ETA 25s" +
      "\r\x1b[Kanswerability 100/200 (50.0%)  cached 20  failed 1  8.0/s  ETA 1m31s" +
      "\r\x1b[Kanswerability 200/200 (100.0%)  cached 20  failed 1  8.0/s  took 1m05s\n",
  );
});

Deno.test("terminalProgress writes whole lines off a TTY", () => {
  const lines: string[] = [];
  let t = 0;
  const p = terminalProgress((s) => lines.push(s), { now: () => t });
  p(ev(0, { rate: 0, etaMs: NaN }));
  t = 1000;
  p(ev(10));
  t = 6000;
  p(ev(20));
  p(ev(200, { etaMs: 0 }));
  assert.deepEqual(lines, [
    "answerability 0/200 (0.0%)  cached 20  failed 1  0.0/s  ETA ?\n",
    "answerability 20/200 (10.0%)  cached 20  failed 1  8.0/s  ETA 25s\n",
    "answerability 200/200 (100.0%)  cached 20  failed 1  8.0/s  took 10s\n",
  ]);
});
