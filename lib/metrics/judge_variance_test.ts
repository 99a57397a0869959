import assert from "node:assert/strict";
import { judgeVariance } from "./judge_variance.ts";

const close = (a: number, b: number, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

Deno.test("judgeVariance: spread per run and how often the ranking survives", () => {
  const v = judgeVariance([
    { sample: "s0", run: "a", value: 0.6 },
    { sample: "s0", run: "b", value: 0.4 },
    { sample: "s0", run: "c", value: 0.1 },
    { sample: "s1", run: "a", value: 0.5 },
    { sample: "s1", run: "b", value: 0.5 },
    { sample: "s1", run: "c", value: 0.2 },
    { sample: "s2", run: "a", value: 0.4 },
    { sample: "s2", run: "b", value: 0.6 },
    { sample: "s2", run: "c", value: 0.0 },
  ]);
  // Means: a 0.5, b 0.5, c 0.1 -> a and b tie; the tie goes to the run name.
  assert.deepEqual(v.meanRanking, ["a", "b", "c"]);
  const a = v.runs.find((r) => r.run === "a")!;
  close(a.mean, 0.5);
  close(a.sd, 0.1);
  assert.deepEqual([a.min, a.max], [0.4, 0.6]);
  // s0 ranks a > b > c (agrees); s1 ties a and b, broken by name (agrees); s2 b > a.
  close(v.rankingAgreement, 2 / 3);
  // Against means (0.5, 0.5, 0.1): s0 tau-b = 2/sqrt(3*2)... computed pairwise.
  // s0: pairs (a,b) x discordant? means tie -> tied in y only; (a,c) C; (b,c) C -> 2/sqrt(3*2).
  // s1: (a,b) tied in both; (a,c) C; (b,c) C -> 2/sqrt(2*2) = 1. s2 same as s0.
  close(v.meanKendall, (2 / Math.sqrt(6) * 2 + 1) / 3);
});

Deno.test("judgeVariance: one sample has zero spread; gaps are errors", () => {
  const v = judgeVariance([{ sample: "0", run: "a", value: 0.3 }]);
  assert.equal(v.runs[0].sd, 0);
  assert.equal(v.rankingAgreement, 1);
  assert.ok(Number.isNaN(v.meanKendall));
  assert.throws(
    () =>
      judgeVariance([
        { sample: "0", run: "a", value: 1 },
        { sample: "1", run: "b", value: 1 },
      ]),
    /Sample "0" has no score for run "b"/,
  );
  assert.throws(() => judgeVariance([]), /no samples/);
});
