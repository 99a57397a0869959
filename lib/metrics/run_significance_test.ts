import assert from "node:assert/strict";
import { holmAdjust } from "./holm_adjust.ts";
import { runSignificance } from "./run_significance.ts";
import { pairedTTest } from "./paired_t.ts";
import { randomizationTest } from "./randomization.ts";

const close = (a: number, b: number, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

Deno.test("holmAdjust: step-down multipliers m, m-1, ... with monotone maxima", () => {
  const r = holmAdjust([0.01, 0.04, 0.03]);
  // Sorted 0.01 x3 = 0.03; 0.03 x2 = 0.06; 0.04 x1 = 0.04 -> raised to 0.06.
  [0.03, 0.06, 0.06].forEach((v, i) => close(r[i], v));
  assert.deepEqual(holmAdjust([0.5, 0.9]), [1, 1]);
  const nan = holmAdjust([NaN, 0.02]);
  assert.ok(Number.isNaN(nan[0]));
  close(nan[1], 0.02); // m counts defined values only
  assert.deepEqual(holmAdjust([]), []);
});

const v = (run: string, topicId: string, value: number) => ({ run, topicId, value });

Deno.test("runSignificance: tests every pair over shared topics, Holm across pairs", () => {
  const a = [0.9, 0.8, 0.85, 0.7, 0.95, 0.9, 0.8, 0.75];
  const b = [0.5, 0.4, 0.6, 0.45, 0.55, 0.5, 0.4, 0.6];
  const c = [0.52, 0.41, 0.58, 0.47, 0.5, 0.49, 0.43, 0.57];
  const rows = [a, b, c].flatMap((xs, r) => xs.map((x, t) => v("abc"[r], `t${t}`, x)));
  const s = runSignificance(rows, { trials: 2000, seed: 3 });
  assert.deepEqual(s.pairs.map((p) => [p.a, p.b, p.topics]), [
    ["a", "b", 8],
    ["a", "c", 8],
    ["b", "c", 8],
  ]);
  const raw = [[a, b], [a, c], [b, c]].map(([x, y]) => ({
    r: randomizationTest(x, y, { trials: 2000, seed: 3 }).p,
    t: pairedTTest(x, y).p,
  }));
  const rh = holmAdjust(raw.map((x) => x.r)), th = holmAdjust(raw.map((x) => x.t));
  s.pairs.forEach((p, i) => {
    close(p.randomizationP, raw[i].r);
    close(p.tP, raw[i].t);
    close(p.randomizationHolm, rh[i]);
    close(p.tHolm, th[i]);
  });
  // a beats b on all 8 topics: exact sign-flip p = 2/256, x3 by Holm; b vs c are mixed.
  close(s.pairs[0].meanDifference, (6.65 - 4.0) / 8, 1e-9);
  assert.ok(s.pairs[0].significant && !s.pairs[2].significant);
  // Seeded: identical on a second call; another seed moves the randomization p only.
  assert.deepEqual(runSignificance(rows, { trials: 2000, seed: 3 }), s);
  const other = runSignificance(rows, { trials: 2000, seed: 4 });
  assert.equal(other.pairs[0].tP, s.pairs[0].tP);
});

Deno.test("runSignificance: a constant measure has a zero-width interval; one topic is untestable", () => {
  const s = runSignificance([
    v("a", "t1", 0.4),
    v("a", "t2", 0.4),
    v("a", "t3", 0.4),
    v("b", "t1", 0.1),
  ]);
  const [ci] = s.intervals;
  assert.equal(ci.upper - ci.lower, 0);
  close(ci.mean, 0.4, 1e-15);
  assert.equal(ci.topics, 3);
  assert.equal(s.pairs[0].topics, 1);
  assert.ok(Number.isNaN(s.pairs[0].randomizationP) && !s.pairs[0].significant);
  assert.throws(
    () => runSignificance([v("a", "t1", 1), v("a", "t1", 2)]),
    /two values for topic "t1"/,
  );
});
