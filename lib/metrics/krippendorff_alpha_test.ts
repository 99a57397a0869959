import assert from "node:assert/strict";
import { krippendorffAlpha } from "./krippendorff_alpha.ts";
import { seededRandom } from "./seeded_random.ts";

const close = (a: number, b: number, what = "", eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${what} ${a} vs ${b}`);

// Three coders, values 1 < 2 < 3; null = not coded.
//   u1 [1, 2, -]  u2 [2, 2, 3]  u3 [3, 3, -]  u4 [1, 1, -]  u5 [1, 3, -]  u6 [1, 1, -]  u7 [2, -, -]
// Coincidences (ordered pairs within a unit, weight 1 / (m_u - 1); u7 has one value, dropped):
//   u1: o12 = o21 = 1;  u2 (weight 1/2): 2-2 twice -> o22 += 1, 2-3 twice each way -> o23 = o32 = 1
//   u3: o33 += 2;  u4, u6: o11 += 2 each;  u5: o13 = o31 = 1
//        1  2  3
//   1 [  4, 1, 1 ]   n1 = 6
//   2 [  1, 1, 1 ]   n2 = 3
//   3 [  1, 1, 2 ]   n3 = 4      n = 13
const UNITS = [
  [1, 2, null],
  [2, 2, 3],
  [3, 3, null],
  [1, 1, null],
  [1, 3, null],
  [1, 1, null],
  [2, null, null],
];

Deno.test("krippendorffAlpha: coincidence-matrix example at every level, computed by hand", () => {
  // Off-diagonal mass 6 (o12 + o21 + o13 + o31 + o23 + o32).
  // Nominal: expected Σ_{c≠k} n_c n_k = 13² - (36 + 9 + 16) = 108; alpha = 1 - 12 * 6 / 108 = 1/3.
  close(krippendorffAlpha(UNITS), 1 / 3, "nominal");
  close(krippendorffAlpha(UNITS, { level: "nominal" }), 1 / 3, "nominal");
  // Ordinal: δ12 = (6 + 3)/2 = 4.5, δ23 = (3 + 4)/2 = 3.5, δ13 = 6/2 + 3 + 4/2 = 8 (squared).
  const d12 = 4.5 ** 2, d23 = 3.5 ** 2, d13 = 8 ** 2;
  const observed = 2 * (1 * d12 + 1 * d13 + 1 * d23); // 193
  const expected = 2 * (6 * 3 * d12 + 6 * 4 * d13 + 3 * 4 * d23); // 4095
  assert.equal(observed, 193);
  assert.equal(expected, 4095);
  close(krippendorffAlpha(UNITS, { level: "ordinal" }), 1 - (12 * 193) / 4095, "ordinal");
  close(krippendorffAlpha(UNITS, { level: "ordinal" }), 593 / 1365, "ordinal");
  // Interval: δ² = 1, 1, 4; observed 2 * (1 + 4 + 1) = 12, expected 2 * (18 + 96 + 12) = 252.
  close(krippendorffAlpha(UNITS, { level: "interval" }), 1 - (12 * 12) / 252, "interval");
  // Ratio: δ12 = (1/3)², δ13 = (2/4)², δ23 = (1/5)².
  const r12 = 1 / 9, r13 = 1 / 4, r23 = 1 / 25;
  const ro = 2 * (r12 + r13 + r23), re = 2 * (18 * r12 + 24 * r13 + 12 * r23);
  close(krippendorffAlpha(UNITS, { level: "ratio" }), 1 - (12 * ro) / re, "ratio");
  // Ordinal strings need their order; the same data as labels low < mid < high.
  const names = ["low", "mid", "high"];
  const labelled = UNITS.map((u) => u.map((v) => (v === null ? undefined : names[v - 1])));
  close(krippendorffAlpha(labelled, { level: "ordinal", order: names }), 593 / 1365, "strings");
  close(krippendorffAlpha(labelled), 1 / 3, "nominal strings");
  assert.throws(
    () => krippendorffAlpha(labelled, { level: "ordinal" }),
    /"(low|mid|high)" is not a/,
  );
  assert.throws(
    () => krippendorffAlpha(labelled, { level: "ordinal", order: ["low", "mid"] }),
    /"high" is not in the given order/,
  );
});

Deno.test("krippendorffAlpha: undefined cases and perfect agreement", () => {
  assert.ok(Number.isNaN(krippendorffAlpha([[1], [2, null]])), "no pairable unit");
  assert.ok(Number.isNaN(krippendorffAlpha([[1, 1], [1, 1, 1]])), "one value only");
  assert.equal(krippendorffAlpha([[1, 1], [0, 0, null], [1, 1, 1]]), 1);
  // Two units, complete disagreement on both: o01 = o10 = 2, n0 = n1 = 2, n = 4;
  // alpha = 1 - 3 * 4 / (2 * 2 * 2) = -0.5.
  close(krippendorffAlpha([[0, 1], [1, 0]]), -0.5);
});

/** Alpha as 1 - D_o / D_e written with pairs of values instead of a coincidence matrix. */
function byPairs(units: (number | null)[][], delta: (a: number, b: number) => number): number {
  const kept = units.map((u) => u.filter((v): v is number => v !== null)).filter((u) =>
    u.length > 1
  );
  const all = kept.flat();
  const n = all.length;
  let dObs = 0;
  for (const u of kept) {
    let s = 0;
    for (let i = 0; i < u.length; i++) {
      for (let j = 0; j < u.length; j++) if (i !== j) s += delta(u[i], u[j]);
    }
    dObs += s / (u.length - 1);
  }
  dObs /= n;
  let dExp = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) if (i !== j) dExp += delta(all[i], all[j]);
  }
  dExp /= n * (n - 1);
  return 1 - dObs / dExp;
}

Deno.test("krippendorffAlpha equals the pairwise-disagreement form on random incomplete data", () => {
  const rnd = seededRandom(11);
  for (let trial = 0; trial < 5; trial++) {
    const units = Array.from({ length: 40 }, () => {
      const truth = Math.floor(rnd() * 5);
      return Array.from(
        { length: 4 },
        () => rnd() < 0.35 ? null : Math.max(0, Math.min(4, truth + Math.floor(rnd() * 3) - 1)),
      );
    });
    close(krippendorffAlpha(units), byPairs(units, (a, b) => (a === b ? 0 : 1)), "nominal", 1e-9);
    close(
      krippendorffAlpha(units, { level: "interval" }),
      byPairs(units, (a, b) => (a - b) ** 2),
      "interval",
      1e-9,
    );
    // Ordinal distance from the pooled value counts of pairable values.
    const counts = new Map<number, number>();
    for (const u of units) {
      const vs = u.filter((v): v is number => v !== null);
      if (vs.length > 1) { for (const v of vs) counts.set(v, (counts.get(v) ?? 0) + 1); }
    }
    const ordinal = (a: number, b: number) => {
      const [lo, hi] = a < b ? [a, b] : [b, a];
      let s = 0;
      for (let g = lo; g <= hi; g++) s += counts.get(g) ?? 0;
      return a === b ? 0 : (s - ((counts.get(lo) ?? 0) + (counts.get(hi) ?? 0)) / 2) ** 2;
    };
    close(
      krippendorffAlpha(units, { level: "ordinal" }),
      byPairs(units, ordinal),
      "ordinal",
      1e-9,
    );
  }
});
