import assert from "node:assert/strict";
import { kendallTau } from "./kendall_tau.ts";
import { kendallMerge, kendallPairs } from "./_kendall.ts";
import { seededRandom } from "./seeded_random.ts";

Deno.test("kendallTau: the O(n log n) count equals the pairwise tau-b on tied random data", () => {
  assert.equal(kendallMerge([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]), -0.47140452079103173);
  const random = seededRandom(5);
  for (const n of [2, 3, 10, 57, 64, 65, 300]) {
    const x = Array.from({ length: n }, () => Math.floor(random() * 6));
    const y = Array.from(
      { length: n },
      (_, i) => (random() < 0.5 ? x[i] : Math.floor(random() * 6)),
    );
    const slow = kendallPairs(x, y);
    // Both divide the same integer counts: the values are identical, not just close.
    assert.equal(kendallMerge(x, y), slow, `n=${n}`);
    assert.equal(kendallTau(x, y), slow, `n=${n}`);
  }
  assert.ok(Number.isNaN(kendallMerge([1, 1, 1], [1, 2, 3])));
  assert.ok(Number.isNaN(kendallTau(Array(100).fill(1), Array.from({ length: 100 }, (_, i) => i))));
  // Infinite values are ordered, not subtracted (Infinity - Infinity is NaN).
  assert.equal(
    kendallPairs([1, Infinity, Infinity], [1, 2, 3]),
    kendallMerge([1, Infinity, Infinity], [1, 2, 3]),
  );
});

Deno.test("kendallTau handles large samples in O(n log n)", () => {
  // x = 0..n-1 (no ties), y = i mod 2: the pairs tied only in y are those within
  // the even and within the odd positions; a pair i < j is concordant when i is
  // even and j odd, discordant when i is odd and j even.
  const n = 100_000;
  const x = Array.from({ length: n }, (_, i) => i);
  const y = x.map((i) => i % 2);
  const half = n / 2;
  // Pairs (even i, odd j > i): sum over even i = 2k of the odd j above it = half - k.
  const concordant = half * (half + 1) / 2;
  const discordant = half * half - concordant;
  const expected = (concordant - discordant) /
    Math.sqrt((concordant + discordant) * (concordant + discordant + 2 * (half * (half - 1) / 2)));
  const start = performance.now();
  const tau = kendallTau(x, y);
  const ms = performance.now() - start;
  assert.ok(Math.abs(tau - expected) < 1e-12, `${tau} vs ${expected}`);
  // Counting all 5e9 pairs takes tens of seconds; the merge count a few milliseconds.
  assert.ok(ms < 3000, `kendallTau took ${ms.toFixed(0)} ms on ${n} pairs`);
});
