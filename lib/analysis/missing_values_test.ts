import assert from "node:assert/strict";
import { mainTable } from "./main_table.ts";
import { thresholdTable } from "./threshold_table.ts";
import { reportScores } from "./report_scores.ts";
import { tinyData, tinyExtract } from "./testdata/tiny_data.ts";
import { withStoredMeasures } from "./testdata/stored_measures.ts";
import { withStatistics } from "./testdata/with_statistics.ts";
import { storedStatistic } from "./stored_statistic.ts";

Deno.test("main and threshold tables name the conditions without a value", () => {
  const data = tinyExtract();
  // b's reports were never judged: no Cov(y) or Den(y) for b.
  const reportRatings = new Map([...data.reportRatings].filter(([k]) => !k.endsWith(":b")));
  const unjudged = withStoredMeasures({ ...data, reportRatings });
  const why = "ratings of the report failed or are missing for topics t1, t2; re-run to retry";
  const main = mainTable(unjudged).table!.notes!;
  assert.ok(main.includes(`No value of Cov(y): b (${why}).`), main.join("\n"));
  assert.ok(main.includes(`No value of Den(y): b (${why}).`), main.join("\n"));
  // Direct prompting has no context: it is not listed as missing a context value.
  assert.ok(!main.some((n) => n.startsWith("No value of Cov(Z)")), main.join("\n"));
  const th = thresholdTable(unjudged).table!.notes!;
  assert.ok(th.includes(`t = 3: no value of Cov(y): b (${why}).`), th.join("\n"));
  assert.ok(th.includes(`t = 5: no value of Den(y): b (${why}).`), th.join("\n"));
  // Every value present: no such note.
  assert.ok(!mainTable(tinyData()).table!.notes!.some((n) => n.startsWith("No value")));
});

Deno.test("a run whose topic set is incomplete has no mean in any table, only its stored topics", () => {
  // As the measure stage stores it when b's report on t2 lost its ratings: b's
  // t1 value, no t2 value and no run mean of b's reports.
  const full = tinyData();
  const measures = full.measures!.filter((r) =>
    !(r.run === "b" && r.source === "report" && (r.topicId === "t2" || r.topicId === "all"))
  );
  // The statistics stage stores what the tables ask for, from these measures.
  const data = withStatistics({ ...full, measures }, (d) => [mainTable(d), thresholdTable(d)]);
  const r = mainTable(data);
  const mean = (c: string, m: string) =>
    r.data.means.find((x) => x.condition === c && x.measure === m)?.value;
  // b's t1 report rates [3, 1, 0] on A(3) = {q1, q2}: Cov 0.5; never shown as b's mean.
  assert.equal(
    r.data.perTopic.find((x) => x.condition === "b" && x.measure === "covY")?.value,
    0.5,
  );
  assert.equal(mean("b", "covY"), undefined);
  assert.equal(mean("b", "covZ"), 0.75, "b's contexts are complete: (1 + 0.5) / 2");
  const row = r.table!.rows.find((x) => x.label === "b")!;
  assert.equal(row.values["tiny:covY"], null, "blank, not the mean of t1 alone");
  const why = "ratings of the report failed or are missing for topic t2; re-run to retry";
  assert.ok(
    r.table!.notes!.includes(`No value of Cov(y): b (${why}).`),
    r.table!.notes!.join("\n"),
  );
  // The Kendall τ of Cov(y) is absent, not over the other pipelines: stored without a
  // value, with the reason naming b's missing mean, which the table shows.
  const covY = r.data.taus.filter((x) => x.report === "covY");
  assert.equal(covY.length, 2);
  for (const x of covY) {
    assert.ok(Number.isNaN(x.value) && x.pipelines === 0, JSON.stringify(x));
    assert.equal(x.reason, `1 of 3 inputs have no stored value: b Cov(y): ${why}`);
  }
  // As stored: every tau absent (b lost its Den(y) mean too), 2 complete pairs of 3.
  const stored = r.statistics!.map((q) => storedStatistic(data, q.key));
  assert.deepEqual(stored.map((x) => [x.value, x.n]), [[null, 2], [null, 2], [null, 2]]);
  assert.ok(
    r.table!.notes!.includes(
      `No Kendall τ of Cov(Z) vs Cov(y): 1 of 3 inputs have no stored value: b Cov(y): ${why}.`,
    ),
    r.table!.notes!.join("\n"),
  );
  const tauCell = r.cells!.find((c) => c.row.startsWith("Kendall") && c.column === "tiny:covZ")!;
  assert.equal(tauCell.reason, `1 of 3 inputs have no stored value: b Cov(y): ${why}`);
  // The threshold table shows no mean across pipelines that the main table withholds.
  const th = thresholdTable(data);
  const at3 = th.data.stats.find((s) => s.measure === "covY" && s.threshold === 3)!;
  assert.ok(Number.isNaN(at3.mean), "no mean over a subset of the pipelines");
  assert.equal(at3.pipelines, 0);
  // Cov(Z) is complete for all three pipelines: (1 + 0.75 + 0.5) / 3.
  const z = th.data.stats.find((s) => s.measure === "covZ" && s.threshold === 3)!;
  assert.ok(Math.abs(z.mean - 0.75) < 1e-12, String(z.mean));
  // The report scores leave b blank with the reason.
  const rs = reportScores(data);
  const b = rs.data.scores.find((s) => s.condition === "b")!;
  assert.ok(Number.isNaN(b.coverage));
  assert.ok(Number.isNaN(b.topics), "no topic count without a mean");
  assert.ok(rs.table!.notes!.includes(`b: no Cov(y) (${why}).`), rs.table!.notes!.join("\n"));
});

Deno.test("the threshold table states the topic set of its means at each threshold", () => {
  // t1 has A(3) = {q1, q2} and A(5) = {q1}; t2 has A(3) = A(5) = {q1, q2}: two topics at both.
  const notes = thresholdTable(tinyData()).table!.notes!;
  for (const t of [3, 5]) {
    assert.ok(
      notes.includes(
        `t = ${t}: pipeline means over 2 topics (those with a sub-question answerable at t).`,
      ),
      notes.join("\n"),
    );
  }
});
