import assert from "node:assert/strict";
import type { TypedCoverage } from "@lib/metrics/mod.ts";
import { winRates } from "./win_rates.ts";
import { searchWeights, weightedAccuracy } from "./search_weights.ts";
import { preferenceResults } from "./preference_results.ts";
import { combineOrders } from "./pairwise_judge.ts";

const items = (core: number, bg: number, fu: number): TypedCoverage[] => [
  ...[0, 1].map((i) => ({ type: "core" as const, answered: i < core, retrieved: false })),
  ...[0, 1].map((i) => ({ type: "background" as const, answered: i < bg, retrieved: false })),
  ...[0, 1].map((i) => ({ type: "follow-up" as const, answered: i < fu, retrieved: false })),
];

Deno.test("winRates: ties count half; the matrix is one minus its transpose", () => {
  const cells = winRates([
    { topicId: "t1", runA: "x", runB: "y", verdict: "A" },
    { topicId: "t2", runA: "y", runB: "x", verdict: "A" },
    { topicId: "t3", runA: "x", runB: "y", verdict: "tie" },
    { topicId: "t1", runA: "x", runB: "z", verdict: "A" },
  ]);
  const c = (r: string, o: string) => cells.find((x) => x.run === r && x.opponent === o)!;
  assert.deepEqual(c("x", "y"), {
    run: "x",
    opponent: "y",
    wins: 1,
    losses: 1,
    ties: 1,
    winRate: 0.5,
  });
  assert.equal(c("x", "z").winRate, 1);
  assert.equal(c("z", "x").winRate, 0);
  assert.equal(c("x", "x").winRate, null);
  assert.equal(c("y", "z").winRate, null);
});

Deno.test("combineOrders: agreement wins, disagreement or a missing order is a tie", () => {
  assert.equal(combineOrders("A", "A"), "A");
  assert.equal(combineOrders("A", "B"), "tie");
  assert.equal(combineOrders("B", null), "tie");
  assert.equal(combineOrders("tie", "tie"), "tie");
});

Deno.test("preferenceResults: core-only, hybrid and pairwise accuracies by hand", () => {
  const pairs = [
    // a: core 1/2, follow-up 2/2 (hybrid 0.5 - 1 = -0.5); b: core 1/2 (0.5). Human B.
    { a: items(1, 0, 2), b: items(1, 0, 0), human: "B" as const, pairwise: "B" as const },
    // a: core 2/2 (1); b: core 1/2, bg 2/2 (0.5 + 0.5 = 1). Human A: hybrid tie = miss.
    { a: items(2, 0, 0), b: items(1, 2, 0), human: "A" as const, pairwise: "tie" as const },
    { a: items(2, 0, 0), b: items(0, 0, 0), human: "tie" as const, pairwise: "A" as const },
  ];
  const r = preferenceResults(pairs);
  assert.equal(r.labelled, 2);
  assert.equal(r.pairs, 3);
  assert.equal(r.coreOnly, 0.5); // pair 1: equal core = miss; pair 2: 1 > 0.5 hit
  assert.equal(r.hybrid, 0.5); // pair 1 hit, pair 2 equal = miss
  assert.equal(r.pairwise, 0.5); // pair 1 hit, pair 2 judge tie = miss; pair 3 removed
  assert.equal(r.search!.validationPairs + r.search!.testPairs, 2);
  assert.equal(preferenceResults([]).hybrid, null);
});

Deno.test("searchWeights: finds weights that separate planted preferences and reports held-out accuracy", () => {
  // Humans here dislike background: prefer the answer with less background when core ties.
  const pairs = Array.from(
    { length: 20 },
    (_, i) =>
      i % 2
        ? { a: items(1, 2, 0), b: items(1, 0, 0), human: "B" as const }
        : { a: items(2, 0, 0), b: items(1, 0, 0), human: "A" as const },
  );
  assert.equal(weightedAccuracy(pairs, { core: 1, background: 0.5, "follow-up": -1 }), 0.5);
  const s = searchWeights(pairs, { seed: 1 });
  assert.ok(s.weights.background < 0, JSON.stringify(s.weights));
  assert.equal(s.validationAccuracy, 1);
  assert.equal(s.testAccuracy, 1);
  assert.deepEqual([s.validationPairs, s.testPairs], [10, 10]);
  assert.throws(
    () => searchWeights([{ a: [], b: [], human: "tie" }]),
    /no pair has a human preference/,
  );
});
