import assert from "node:assert/strict";
import { tableMarkdown } from "@lib/report/mod.ts";
import { thresholdTable } from "./threshold_table.ts";
import { tinyData as tiny } from "./testdata/tiny_data.ts";
import { withStatistics } from "./testdata/with_statistics.ts";

/** The tiny data with the statistics the statistics stage stores for its threshold tables. */
const tinyData = () =>
  withStatistics(tiny(), (d) => [thresholdTable(d), thresholdTable(d, { thresholds: [3, 4, 5] })]);

const close = (a: number | undefined, b: number, what: string) =>
  assert.ok(a !== undefined && Math.abs(a - b) < 1e-9, `${what}: ${a} != ${b}`);

Deno.test("thresholdTable: tau = 3 vs 5, hand-checked Cov(Z) statistics", () => {
  const r = thresholdTable(tinyData());
  const s = (m: string, t: number) =>
    r.data.stats.find((x) => x.measure === m && x.threshold === t)!;
  // tau 3: pipeline means [1, 0.75, 0.5] -> mean 0.75, sd 0.25.
  close(s("covZ", 3).mean, 0.75, "mean@3");
  close(s("covZ", 3).sd, 0.25, "sd@3");
  assert.ok(Number.isNaN(s("covZ", 3).tau));
  // tau 5: A(t1) = {q1}; a covers t1 and half of t2 (0.75); b and c cover half of t2 only (0.25).
  const at5 = r.data.means.filter((m) => m.threshold === 5 && m.measure === "covZ").map((m) =>
    m.value
  );
  assert.deepEqual(at5, [0.75, 0.25, 0.25]);
  close(s("covZ", 5).mean, 1.25 / 3, "mean@5");
  close(s("covZ", 5).sd, Math.sqrt(1 / 12), "sd@5");
  // [1, .75, .5] vs [.75, .25, .25]: 2 concordant pairs, one tie in y -> 2 / sqrt(2 * 3).
  close(s("covZ", 5).tau, 2 / Math.sqrt(6), "tau 3 vs 5");
  assert.equal(s("covZ", 5).pipelines, 3);
});

Deno.test("thresholdTable: the table has mean, sd and tau columns and the backend note", () => {
  const t = thresholdTable(tinyData(), { thresholds: [3, 4, 5] }).table!;
  assert.deepEqual(t.columns.map((c) => c.label), [
    "t=3 mean",
    "t=3 sd",
    "t=4 mean",
    "t=4 sd",
    "Kendall τ (3 vs 4)",
    "t=5 mean",
    "t=5 sd",
    "Kendall τ (3 vs 5)",
  ]);
  assert.deepEqual(t.rows.map((r) => r.label), ["Cov(Z)", "α-nDCG", "Cov(y)", "Den(Z)", "Den(y)"]);
  const md = tableMarkdown(t);
  assert.ok(md.includes("| Cov(Z) | 0.750 | 0.250 |"), md);
  assert.ok(md.includes("offline backends: lexical judge, extractive generator"));
});

Deno.test("thresholdTable: a single threshold is refused", () => {
  assert.throws(
    () => thresholdTable(tinyData(), { thresholds: [3] }),
    /give at least two, e.g. \[3, 5\]/,
  );
});
