import assert from "node:assert/strict";
import { kendallTau } from "./kendall_tau.ts";
import { averageRanks, spearman } from "./spearman.ts";
import { pearson } from "./pearson.ts";
import { systemCorrelation } from "./system_correlation.ts";
import type { MetricRow } from "@lib/types/mod.ts";

const close = (a: number, b: number, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

Deno.test("kendallTau matches scipy's documented tau-b example", () => {
  close(kendallTau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]), -0.47140452079103173);
  assert.equal(kendallTau([1, 2, 3], [3, 2, 1]), -1);
  // Hand count: x = 1,2,3,4 y = 1,3,2,4: 5 concordant, 1 discordant -> 4/6.
  close(kendallTau([1, 2, 3, 4], [1, 3, 2, 4]), 4 / 6);
  assert.ok(Number.isNaN(kendallTau([1, 1, 1], [1, 2, 3])));
  assert.throws(() => kendallTau([1, 2], [1]), /the samples have 2 and 1 values/);
});

Deno.test("spearman uses average ranks for ties", () => {
  assert.deepEqual(averageRanks([10, 20, 10, 30]), [1.5, 3, 1.5, 4]);
  close(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]), 0.8207826816681233);
  assert.equal(spearman([1, 2, 3], [10, 20, 30]), 1);
});

Deno.test("pearson matches scipy's documented example", () => {
  close(pearson([1, 2, 3, 4, 5], [10, 9, 2.5, 6, 4]), -0.7426106572325057);
  close(pearson([1, 2, 3], [2, 4, 6]), 1);
  assert.ok(Number.isNaN(pearson([1, 2, 3], [5, 5, 5])));
  assert.throws(() => pearson([1], [1]), /need at least 2 pairs, got 1/);
});

Deno.test("systemCorrelation at system, topic and pair level", () => {
  const rows = (measure: string, values: Record<string, number[]>): MetricRow[] =>
    Object.entries(values).flatMap(([run, v]) =>
      v.map((value, t) => ({ run, topicId: `t${t}`, measure, value }))
    );
  // Three runs, two topics. Means under a: A 0.2, B 0.5, C 0.8; under b: A 0.1, B 0.3, C 0.2.
  const a = rows("a", { A: [0.1, 0.3], B: [0.4, 0.6], C: [0.7, 0.9] });
  const b = rows("b", { A: [0.0, 0.2], B: [0.2, 0.4], C: [0.3, 0.1] });
  // System level on means: a ranks A<B<C, b ranks A<C<B -> tau = (2 - 1)/3.
  close(systemCorrelation(a, b, { method: "kendall" }), 1 / 3);
  // Topic t0: a 0.1,0.4,0.7 vs b 0,0.2,0.3 -> 1; t1: a 0.3,0.6,0.9 vs b 0.2,0.4,0.1 -> -1/3.
  close(systemCorrelation(a, b, { method: "kendall", level: "topic" }), (1 - 1 / 3) / 2);
  // Pairs: 6 (run, topic) values correlated directly.
  close(
    systemCorrelation(a, b, { method: "pearson", level: "pairs" }),
    pearson([0.1, 0.3, 0.4, 0.6, 0.7, 0.9], [0, 0.2, 0.2, 0.4, 0.3, 0.1]),
  );
  // Only (run, topic) pairs present under both measures count.
  close(systemCorrelation(a, b.filter((r) => r.topicId === "t0"), { method: "spearman" }), 1);
});
