import assert from "node:assert/strict";
import { ProgressParts } from "./progress_parts.ts";
import type { ProgressEvent } from "./types.ts";

const event = (done: number, cached: number, failed: number, waits = 0): ProgressEvent => ({
  step: "coverage",
  done,
  total: 99,
  cached,
  failed,
  elapsedMs: 1,
  rate: 1,
  etaMs: 1,
  ...(waits ? { waits: { count: waits, totalMs: 100 * waits } } : {}),
});

Deno.test("ProgressParts counts over every part, waits included, and ends with no time left", () => {
  const seen: ProgressEvent[] = [];
  const parts = new ProgressParts((e) => seen.push(e), 6);
  const a = parts.part()!;
  a(event(1, 1, 0));
  a(event(3, 1, 1, 2));
  const b = parts.part()!;
  b(event(2, 0, 0, 1));
  b(event(3, 2, 1, 1));
  assert.deepEqual(
    seen.map((e) => [e.step, e.done, e.total, e.cached, e.failed, e.waits?.count ?? 0]),
    [
      ["coverage", 1, 6, 1, 0, 0],
      ["coverage", 3, 6, 1, 1, 2],
      ["coverage", 5, 6, 1, 1, 3],
      ["coverage", 6, 6, 3, 2, 3],
    ],
  );
  assert.equal(seen[3].waits?.totalMs, 300);
  assert.equal(seen[3].etaMs, 0);
  // A wait being announced is passed on with the joined counts.
  const c = parts.part()!;
  const waiting = { url: "http://h/v1", reason: "HTTP 429", waitMs: 5, capped: false, attempt: 1 };
  c({ ...event(0, 0, 0, 1), waiting });
  assert.deepEqual([seen[4].done, seen[4].waits?.count, seen[4].waiting], [6, 4, waiting]);
  // Without a receiver, no callback is handed out.
  assert.equal(new ProgressParts(undefined, 3).part(), undefined);
});

Deno.test("ProgressParts joins parts that run at the same time", () => {
  const seen: ProgressEvent[] = [];
  const parts = new ProgressParts((e) => seen.push(e), 8);
  const a = parts.part()!;
  const b = parts.part()!;
  a(event(1, 0, 0));
  b(event(2, 1, 0, 1));
  a(event(3, 0, 1));
  b(event(4, 2, 0, 1));
  a(event(4, 1, 1, 2));
  assert.deepEqual(
    seen.map((e) => [e.done, e.cached, e.failed, e.waits?.count ?? 0]),
    [[1, 0, 0, 0], [3, 1, 0, 1], [5, 1, 1, 1], [7, 2, 1, 1], [8, 3, 1, 3]],
  );
  assert.equal(seen[4].waits?.totalMs, 300);
  assert.equal(seen[4].etaMs, 0);
});
