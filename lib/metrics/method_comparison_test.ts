import assert from "node:assert/strict";
import { compareMethods, type MethodScore } from "./method_comparison.ts";
import { pearson } from "./pearson.ts";
import { spearman } from "./spearman.ts";

const s = (method: string, run: string, topicId: string, value: number): MethodScore => ({
  method,
  run,
  topicId,
  value,
});

const close = (a: number, b: number, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

// Two methods, four runs, two topics. System means:
// crux: a 0.5, b 0.6, c 0.2, d 0.9; nuggets: a 0.45, b 0.3, c 0.1, d 0.7.
const SCORES = [
  s("crux", "a", "t1", 0.4),
  s("crux", "a", "t2", 0.6),
  s("crux", "b", "t1", 0.7),
  s("crux", "b", "t2", 0.5),
  s("crux", "c", "t1", 0.2),
  s("crux", "c", "t2", 0.2),
  s("crux", "d", "t1", 0.8),
  s("crux", "d", "t2", 1.0),
  s("nuggets", "a", "t1", 0.5),
  s("nuggets", "a", "t2", 0.4),
  s("nuggets", "b", "t1", 0.2),
  s("nuggets", "b", "t2", 0.4),
  s("nuggets", "c", "t1", 0.1),
  s("nuggets", "c", "t2", 0.1),
  s("nuggets", "d", "t1", 0.6),
  s("nuggets", "d", "t2", 0.8),
  s("nuggets", "e", "t1", 0.9), // crux did not score run e: left out
];

Deno.test("compareMethods: system table over answers both methods scored", () => {
  const r = compareMethods(SCORES);
  assert.deepEqual(r.methods, ["crux", "nuggets"]);
  assert.deepEqual(r.runs, ["a", "b", "c", "d", "e"]);
  assert.equal(r.left, 1);
  const a = r.system.find((x) => x.run === "a")!;
  close(a.values.crux!, 0.5);
  close(a.values.nuggets!, 0.45);
  assert.equal(a.topics, 2);
  assert.deepEqual(r.system.find((x) => x.run === "e"), {
    run: "e",
    topics: 0,
    values: { crux: null, nuggets: null },
  });
});

Deno.test("compareMethods: correlations across runs, per topic and over pairs", () => {
  const [c] = compareMethods(SCORES).correlations;
  assert.equal(c.runs, 4);
  // Orders: crux d > b > a > c; nuggets d > a > b > c: one discordant pair of 6.
  close(c.kendall, (5 - 1) / 6);
  // Spearman: ranks crux [2,3,1,4] vs nuggets [3,2,1,4]: 1 - 6*2/(4*15) = 0.8.
  close(c.spearman, 0.8);
  const x = [0.5, 0.6, 0.2, 0.9], y = [0.45, 0.3, 0.1, 0.7];
  const mx = 0.55, my = 0.3875;
  const cov = x.reduce((sum, v, i) => sum + (v - mx) * (y[i] - my), 0);
  const sx = Math.sqrt(x.reduce((sum, v) => sum + (v - mx) ** 2, 0));
  const sy = Math.sqrt(y.reduce((sum, v) => sum + (v - my) ** 2, 0));
  close(c.pearson, cov / (sx * sy));
  // Per topic: t1 crux d>b>a>c vs nuggets d>a>b>c: tau 4/6; t2 crux d>a>b>c vs nuggets
  // d>a=b>c: tau-b = (5-0)/sqrt(6*5).
  close(c.topicKendall, (4 / 6 + 5 / Math.sqrt(30)) / 2);
  assert.equal(c.topics, 2);
  const t1 = compareMethods(SCORES).topicCorrelations.find((t) => t.topicId === "t1")!;
  // t1 ranks: crux a.4 b.7 c.2 d.8 -> [2,3,1,4]; nuggets a.5 b.2 c.1 d.6 -> [3,2,1,4].
  assert.equal(t1.runs, 4);
  close(t1.kendall, 4 / 6);
  close(t1.spearman, 0.8);
  close(t1.pearson, pearson([0.4, 0.7, 0.2, 0.8], [0.5, 0.2, 0.1, 0.6]));
  // t2: crux a.6 b.5 c.2 d1 -> [3,2,1,4]; nuggets a.4 b.4 c.1 d.8 -> [2.5,2.5,1,4].
  close(c.topicSpearman, (0.8 + spearman([0.6, 0.5, 0.2, 1], [0.4, 0.4, 0.1, 0.8])) / 2);
});

Deno.test("compareMethods: disagreements list topics where two runs swap order", () => {
  const r = compareMethods(SCORES);
  // Only t1 (a vs b): crux 0.4 < 0.7, nuggets 0.5 > 0.2.
  assert.deepEqual(r.disagreements, [{
    topicId: "t1",
    a: "crux",
    b: "nuggets",
    runX: "a",
    runY: "b",
    aX: 0.4,
    aY: 0.7,
    bX: 0.5,
    bY: 0.2,
  }]);
});

Deno.test("compareMethods: two runs give undefined correlations; duplicates throw", () => {
  const two = SCORES.filter((x) => x.run === "a" || x.run === "b");
  const [c] = compareMethods(two).correlations;
  assert.equal(c.runs, 2);
  assert.ok(Number.isNaN(c.kendall) && Number.isNaN(c.spearman) && Number.isNaN(c.pearson));
  assert.ok(Number.isNaN(c.topicKendall) && Number.isNaN(c.pairsKendall));
  assert.equal(c.topics, 0);
  const t = compareMethods(two).topicCorrelations;
  assert.deepEqual(t.map((x) => [x.topicId, x.runs]), [["t1", 2], ["t2", 2]]);
  assert.ok(t.every((x) => Number.isNaN(x.kendall) && Number.isNaN(x.pearson)));
  assert.throws(
    () => compareMethods([...two, s("crux", "a", "t1", 0.1)]),
    /Method "crux" scores topic "t1" of run "a" twice/,
  );
});
