import assert from "node:assert/strict";
import { runSignificance } from "@lib/metrics/mod.ts";
import { formatStatisticKey, type StatisticKey } from "@lib/store/mod.ts";
import { computeStatistics, type StatisticRequest } from "./compute_statistics.ts";

const ref = (run: string) => ({ run, source: "report", judge: "j", measure: "Cov" });
const topicSet = "scored:crux";
const values: Record<string, number[]> = {
  a: [0.9, 0.8, 0.7, 0.95],
  b: [0.5, 0.6, 0.4, 0.55],
  c: [0.85, 0.82, 0.6, 0.9],
};
const runs = ["a", "b", "c"];
const pairs = [["a", "b"], ["a", "c"], ["b", "c"]];
const test = { trials: 400, seed: 3 };
const family = JSON.stringify(runs);

const pairKey = (statistic: string, a: string, b: string, params = {}): StatisticKey => ({
  statistic,
  x: [ref(a)],
  y: [ref(b)],
  topicSet,
  params,
});
const request = (key: StatisticKey): StatisticRequest => ({
  key,
  x: key.statistic === "holm_p" ? [] : values[key.x[0].run],
  y: key.statistic === "holm_p" ? [] : values[key.y![0].run],
});

Deno.test("computeStatistics: mean difference of two runs over their topics", () => {
  const [d] = computeStatistics([request(pairKey("mean_diff", "a", "b"))]);
  // (0.4 + 0.2 + 0.3 + 0.4) / 4 = 0.325
  assert.ok(Math.abs(d.value! - 0.325) < 1e-12);
  assert.equal(d.n, 4);
  // One topic is enough for a difference; none gives none.
  const [one] = computeStatistics([{ key: pairKey("mean_diff", "a", "b"), x: [0.5], y: [0.2] }]);
  assert.ok(Math.abs(one.value! - 0.3) < 1e-12);
  const [none] = computeStatistics([{ key: pairKey("mean_diff", "a", "b"), x: [], y: [] }]);
  assert.deepEqual([none.value, none.reason], [null, "no topics both runs scored"]);
});

Deno.test("computeStatistics: randomization p and Holm within a family equal runSignificance's", () => {
  const reference = runSignificance(
    runs.flatMap((run) => values[run].map((value, i) => ({ run, topicId: `t${i + 1}`, value }))),
    { ...test, samples: 200 },
  );
  const requests = pairs.flatMap(([a, b]) => [
    request(pairKey("randomization_p", a, b, test)),
    request(pairKey("holm_p", a, b, { ...test, test: "randomization_p", family })),
  ]);
  const rows = computeStatistics(requests);
  assert.equal(rows.length, 6);
  const byId = new Map(rows.map((r) => [formatStatisticKey(r.key), r]));
  const raw = pairs.map(([a, b]) =>
    byId.get(formatStatisticKey(pairKey("randomization_p", a, b, test)))!
  );
  const holm = pairs.map(([a, b]) =>
    byId.get(
      formatStatisticKey(pairKey("holm_p", a, b, { ...test, test: "randomization_p", family })),
    )!
  );
  reference.pairs.forEach((p, i) => {
    assert.equal(raw[i].value, p.randomizationP);
    assert.equal(holm[i].value, p.randomizationHolm);
    assert.equal(holm[i].n, 3);
  });
  // By hand: a beats b on every topic (p smallest), b and c next, a and c last;
  // Holm multiplies the smallest by 3, the next by 2 (kept at least the first), the last by 1.
  const [pab, pac, pbc] = raw.map((r) => r.value!);
  assert.ok(pab <= pbc && pbc <= pac, `${pab} ${pbc} ${pac}`);
  const ab = Math.min(1, 3 * pab);
  const bc = Math.max(ab, Math.min(1, 2 * pbc));
  const ac = Math.max(bc, Math.min(1, pac));
  assert.deepEqual(holm.map((h) => h.value), [ab, ac, bc]);
});

Deno.test("computeStatistics: a Holm family leaves out an absent test and needs every test requested", () => {
  // b and c share one topic only: their test is absent and the family has two tests.
  const short: Record<string, number[]> = { a: [0.9, 0.8], b: [0.5, 0.6], c: [0.7] };
  const at = (run: string, other: string) =>
    run === "c" || other === "c" ? short[run].slice(0, 1) : short[run];
  const req = (key: StatisticKey): StatisticRequest => ({
    key,
    x: key.statistic === "holm_p" ? [] : at(key.x[0].run, key.y![0].run),
    y: key.statistic === "holm_p" ? [] : at(key.y![0].run, key.x[0].run),
  });
  const t = { test: "paired_t_p", family };
  const rows = computeStatistics([
    ...pairs.map(([a, b]) => req(pairKey("paired_t_p", a, b))),
    ...pairs.map(([a, b]) => req(pairKey("holm_p", a, b, t))),
  ]);
  const [ab, ac, bc] = rows.slice(0, 3);
  assert.equal(ac.value, null);
  assert.equal(bc.value, null);
  // a - b is 0.4 and 0.2: mean 0.3, sd 0.1414, t = 3, 1 df: p = 1 - 2 atan(3) / pi.
  assert.ok(Math.abs(ab.value! - (1 - 2 * Math.atan(3) / Math.PI)) < 1e-9);
  const [hab, hac] = rows.slice(3, 5);
  assert.equal(hab.value, ab.value); // the only test: times 1
  assert.equal(hab.n, 1);
  assert.equal(hac.value, null);
  assert.match(hac.reason, /^its test is absent: undefined over 1 value/);
  assert.throws(
    () => computeStatistics([req(pairKey("holm_p", "a", "b", t))]),
    /the test .* of its family is not requested/,
  );
  assert.throws(
    () => computeStatistics([req(pairKey("holm_p", "b", "a", t))]),
    /its pair \(x, y\) is not a pair of params.family in order/,
  );
});
