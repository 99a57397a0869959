import assert from "node:assert/strict";
import { notebookProgress, type TextMimeBundle } from "./notebook_progress.ts";
import type { ProgressEvent } from "./types.ts";

const ev = (done: number): ProgressEvent => ({
  step: "judge",
  done,
  total: 4,
  cached: 0,
  failed: 0,
  elapsedMs: 1000,
  rate: 2,
  etaMs: 1000,
});

Deno.test("notebookProgress shows one display and updates it in place", () => {
  const calls: [TextMimeBundle, { id: string; update: boolean }][] = [];
  let t = 0;
  const p = notebookProgress({
    display: (b, o) => calls.push([b, o]),
    id: "d1",
    intervalMs: 250,
    now: () => t,
  });
  p(ev(1));
  t = 100;
  p(ev(2)); // throttled
  t = 400;
  p(ev(4));
  assert.deepEqual(calls.map(([, o]) => o), [{ id: "d1", update: false }, {
    id: "d1",
    update: true,
  }]);
  assert.equal(calls[0][0]["text/plain"], "judge 1/4 (25.0%)  cached 0  failed 0  2.0/s  ETA 1s");
  assert.equal(
    calls[1][0]["text/html"],
    '<div><progress value="4" max="4" style="width:20em"></progress> <code>judge 4/4 (100.0%)  cached 0  failed 0  2.0/s  took 1s</code></div>',
  );
});

Deno.test("notebookProgress outside a notebook kernel is a silent no-op", () => {
  // Under `deno test`, reading Deno.jupyter throws; the default sink must not.
  const progress = notebookProgress();
  const event: ProgressEvent = {
    step: "x",
    done: 1,
    total: 2,
    cached: 0,
    failed: 0,
    elapsedMs: 10,
    rate: 100,
    etaMs: 10,
  };
  progress(event);
  assert.equal(typeof progress, "function");
});
