import assert from "node:assert/strict";
import { pairedTTest } from "./paired_t.ts";
import { randomizationTest } from "./randomization.ts";
import { bootstrapCi } from "./bootstrap_ci.ts";
import { incompleteBeta, logGamma, studentTwoSidedP } from "./_student_t.ts";

const close = (a: number, b: number, eps = 1e-10) =>
  assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

Deno.test("the Student t tail matches closed forms", () => {
  close(logGamma(5), Math.log(24), 1e-13);
  close(logGamma(0.5), 0.5 * Math.log(Math.PI), 1e-13);
  close(incompleteBeta(0.3, 1, 1), 0.3); // uniform CDF
  close(incompleteBeta(0.4, 2, 1), 0.16); // x^a for b = 1
  // df = 1 (Cauchy): p = 1 - 2 atan(t) / pi.
  close(studentTwoSidedP(1, 1), 0.5);
  close(studentTwoSidedP(3, 1), 1 - (2 * Math.atan(3)) / Math.PI);
  // df = 2: p = 1 - t / sqrt(2 + t^2).
  close(studentTwoSidedP(2, 2), 1 - 2 / Math.sqrt(6));
  close(studentTwoSidedP(-2, 2), 1 - 2 / Math.sqrt(6));
  assert.equal(studentTwoSidedP(0, 7), 1);
  // Large df approaches the normal: two-sided p(1.96) ~ 0.05.
  close(studentTwoSidedP(1.959963984540054, 1e7), 0.05, 1e-6);
});

Deno.test("pairedTTest on a hand-computed example", () => {
  // d = 1, 2, 3, 3: mean 2.25, sample variance 2.75/3, se = sqrt(2.75/3/4), t = 4.7001, df 3.
  const r = pairedTTest([1, 2, 3, 4], [0, 0, 0, 1]);
  const t = 2.25 / Math.sqrt(2.75 / 3 / 4);
  close(r.t, t);
  assert.equal(r.df, 3);
  // df = 3 closed form: p = 1 - (2/pi) (u/(1+u^2) + atan u), u = t / sqrt(3).
  const u = t / Math.sqrt(3);
  close(r.p, 1 - (2 / Math.PI) * (u / (1 + u * u) + Math.atan(u)));
  assert.equal(r.meanDifference, 2.25);
  assert.deepEqual(pairedTTest([1, 2], [1, 2]), { meanDifference: 0, t: NaN, df: 1, p: 1 });
  assert.equal(pairedTTest([2, 3], [1, 2]).p, 0);
  assert.throws(() => pairedTTest([1], [2]), /need at least 2 pairs/);
});

Deno.test("randomizationTest approaches the exact sign-flip p-value and is seeded", () => {
  // d = 1, 1, 1: of the 8 sign patterns, 2 reach |sum| = 3 -> exact p = 0.25.
  const r = randomizationTest([1, 1, 1], [0, 0, 0], { trials: 20_000, seed: 5 });
  close(r.p, 0.25, 0.012);
  assert.equal(r.meanDifference, 1);
  assert.deepEqual(
    randomizationTest([0.3, 0.1, 0.5], [0.2, 0.2, 0.1], { seed: 9 }),
    randomizationTest([0.3, 0.1, 0.5], [0.2, 0.2, 0.1], { seed: 9 }),
  );
  // Identical runs: every assignment is as extreme -> p = 1.
  assert.equal(randomizationTest([0.4, 0.4], [0.4, 0.4], { trials: 99 }).p, 1);
  assert.throws(() => randomizationTest([1, 2], [1, 2], { trials: 0 }), /with 0 trials/);
});

Deno.test("bootstrapCi brackets the mean and is reproducible", () => {
  assert.deepEqual(bootstrapCi([0.5, 0.5, 0.5]), { mean: 0.5, lower: 0.5, upper: 0.5 });
  const values = [0.1, 0.4, 0.35, 0.8, 0.6, 0.2, 0.9, 0.55];
  const ci = bootstrapCi(values, { samples: 2000, seed: 11 });
  close(ci.mean, 0.4875);
  assert.ok(ci.lower < ci.mean && ci.mean < ci.upper, JSON.stringify(ci));
  assert.ok(ci.lower >= 0.1 && ci.upper <= 0.9);
  assert.deepEqual(bootstrapCi(values, { samples: 2000, seed: 11 }), ci);
  const narrow = bootstrapCi(values, { samples: 2000, seed: 11, level: 0.5 });
  assert.ok(narrow.upper - narrow.lower < ci.upper - ci.lower);
  assert.throws(() => bootstrapCi([]), /empty list/);
  assert.throws(() => bootstrapCi([1], { level: 1 }), /level 1/);
});
