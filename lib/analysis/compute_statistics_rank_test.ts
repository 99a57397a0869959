import assert from "node:assert/strict";
import { computeStatistics } from "./compute_statistics.ts";

const runs = ["a", "b", "c", "d"];
const key = (position: number, order: string) => ({
  statistic: "rank",
  x: runs.map((run) => ({ run, source: "decompose", judge: "j", measure: "subq_rating" })),
  topicSet: "all",
  params: { position, order },
});

Deno.test("rank: the rank of one input among all equals a hand count; ties share the best rank", () => {
  const x = [0.5, 0.8, 0.5, 0.1];
  const value = (position: number, order: string) =>
    computeStatistics([{ key: key(position, order), x }])[0].value;
  // Higher is better: b (0.8) first, a and c (0.5) share 2, d (0.1) fourth.
  assert.deepEqual([0, 1, 2, 3].map((p) => value(p, "higher")), [2, 1, 2, 4]);
  // Lower is better: d first, a and c share 2, b fourth.
  assert.deepEqual([0, 1, 2, 3].map((p) => value(p, "lower")), [2, 4, 2, 1]);
  // Values equal to 9 decimals are ties: 0.1 + 0.2 and 0.3 share rank 1.
  const [tie] = computeStatistics([{ key: key(0, "higher"), x: [0.1 + 0.2, 0.3, 0, 0] }]);
  assert.equal(tie.value, 1);
});

Deno.test("rank: a missing input is absent with why; a bad position or order is an error", () => {
  const [gap] = computeStatistics([{
    key: key(0, "higher"),
    x: [0.5, null, 0.5, 0.1],
    missing: ["b subq_rating: not stored"],
  }]);
  assert.equal(gap.value, null);
  assert.equal(gap.reason, "1 of 4 inputs have no stored value: b subq_rating: not stored");
  assert.throws(
    () => computeStatistics([{ key: key(4, "higher"), x: [1, 2, 3, 4] }]),
    /Cannot compute statistic .*"rank".*: parameter position must name an input \(0 to 3\) and order be higher or lower/,
  );
  assert.throws(
    () => computeStatistics([{ key: key(0, "best"), x: [1, 2, 3, 4] }]),
    /order be higher or lower/,
  );
});
