import assert from "node:assert/strict";
import { formatStatisticKey, parseStatisticKey, type StatisticKey } from "@lib/store/mod.ts";
import { computeStatistics } from "./compute_statistics.ts";

const SOURCE = "sample(tau=3,n=2,k=2,depth=4,seed=42)";
const refs = (
  measure: string,
) => [{ run: "bm25#sample*", source: SOURCE, judge: "human", measure }];
const key = (contexts: number): StatisticKey => ({
  statistic: "kendall_tau_b_sampled",
  x: refs("Cov@2"),
  y: refs("R(rel=3)@2"),
  topicSet: "all",
  params: { samples: 2, contexts },
});

Deno.test("kendall_tau_b_sampled: tau-b over the sampled contexts' values equals a hand computation", () => {
  // Cov (1, .5, .5, 1) and Recall (.5, 0, .5, 1): of the 6 pairs, (1,2), (2,4), (3,4)
  // are concordant, none discordant, (1,4) and (2,3) tied in Cov, (1,3) tied in
  // Recall: tau-b = 3 / sqrt((6 - 2) * (6 - 1)) = 3 / sqrt(20).
  const [row] = computeStatistics([{ key: key(4), x: [1, 0.5, 0.5, 1], y: [0.5, 0, 0.5, 1] }]);
  assert.ok(Math.abs(row.value! - 3 / Math.sqrt(20)) < 1e-12, `${row.value}`);
  assert.equal(row.n, 4);
  // A constant vector: absent, with why.
  const [flat] = computeStatistics([{ key: key(3), x: [1, 1, 1], y: [0, 0.5, 1] }]);
  assert.equal(flat.value, null);
  assert.equal(flat.reason, "undefined: the first vector is constant (1 for all 3)");
  // A context without a stored value: absent, never a tau over the others.
  const [gap] = computeStatistics([{
    key: key(3),
    x: [1, null, 0.5],
    y: [0, 0.5, 1],
    missing: ["1 value(s) of the sampled contexts not stored"],
  }]);
  assert.equal(gap.value, null);
  assert.equal(
    gap.reason,
    "1 of 3 inputs have no stored value: 1 value(s) of the sampled contexts not stored",
  );
});

Deno.test("kendall_tau_b_sampled: the key names the samples as a set and reads back; a wrong count fails", () => {
  const k = key(4);
  const text = formatStatisticKey(k);
  assert.equal(
    text,
    `{"statistic":"kendall_tau_b_sampled","params":{"contexts":4,"samples":2},"topicSet":"all",` +
      `"x":[["bm25#sample*","${SOURCE}","human","Cov@2"]],"y":[["bm25#sample*","${SOURCE}","human","R(rel=3)@2"]]}`,
  );
  assert.deepEqual(parseStatisticKey(text), k);
  assert.throws(
    () => computeStatistics([{ key: k, x: [1, 0.5, 0.5], y: [0.5, 0, 0.5] }]),
    /Cannot compute statistic .*kendall_tau_b_sampled.*: its inputs and values differ in length/,
  );
});
