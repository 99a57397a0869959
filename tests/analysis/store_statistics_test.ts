import assert from "node:assert/strict";
import { judgeReports } from "@lib/judge/mod.ts";
import { measureContexts } from "@lib/methods/mod.ts";
import { formatStatisticKey, readStatistics, writeStatistics } from "@lib/store/mod.ts";
import { mainTable } from "@lib/analysis/main_table.ts";
import { thresholdTable } from "@lib/analysis/threshold_table.ts";
import { loadCruxData } from "@lib/analysis/load_crux_data.ts";
import { storeStatistics } from "@lib/analysis/store_statistics.ts";
import { computeStatistics } from "@lib/analysis/compute_statistics.ts";
import { NOT_STORED } from "@lib/analysis/stored_statistic.ts";
import { tinyWorkspace } from "@lib/analysis/testdata/tiny_workspace.ts";

const close = (a: number | null | undefined, b: number, what: string) =>
  assert.ok(typeof a === "number" && Math.abs(a - b) < 1e-12, `${what}: ${a} != ${b}`);

const ref = (run: string, measure: string) => ({ run, source: "", judge: "", measure });

Deno.test("computeStatistics: Kendall tau-b with ties, mean and sd equal a hand computation", () => {
  const runs = ["a", "b", "c", "d"];
  const key = (statistic: string, y = false) => ({
    statistic,
    x: runs.map((r) => ref(r, "P@10")),
    ...(y ? { y: runs.map((r) => ref(r, "Cov")) } : {}),
    topicSet: "all",
  });
  const x = [1, 2, 2, 3];
  const y = [1, 3, 2, 2];
  const [tau, mean, sd] = computeStatistics([
    { key: key("kendall_tau_b", true), x, y },
    { key: key("mean"), x },
    { key: key("sd"), x },
  ]);
  // Pairs: ab +, ac +, ad +, bc tied in x, bd -, cd tied in y: C = 3, D = 1,
  // 5 pairs untied in x and 5 untied in y: tau-b = (3 - 1) / sqrt(5 * 5) = 0.4.
  close(tau.value, 0.4, "tau-b");
  assert.equal(tau.n, 4);
  close(mean.value, 2, "mean");
  // Squares about 2: 1 + 0 + 0 + 1 over n - 1 = 3.
  close(sd.value, Math.sqrt(2 / 3), "sd");
});

Deno.test("computeStatistics: Pearson r equals a hand computation, undefined on a constant vector", () => {
  const runs = ["a", "b", "c"];
  const key = {
    statistic: "pearson_r",
    x: runs.map((r) => ref(r, "strict_vital")),
    y: runs.map((r) => ref(r, "Cov")),
    topicSet: "all",
  };
  // Deviations from the means (2 and 2): x -1 0 1, y -1 1 0; sxy = 1, sxx = 2, syy = 2: r = 1/2.
  const [r] = computeStatistics([{ key, x: [1, 2, 3], y: [1, 3, 2] }]);
  close(r.value, 0.5, "r");
  assert.equal(r.n, 3);
  const [constant] = computeStatistics([{ key, x: [0, 0, 0], y: [0.1, 0.2, 0.3] }]);
  assert.deepEqual(
    [constant.value, constant.reason],
    [null, "undefined: the first vector is constant (0 for all 3)"],
  );
});

Deno.test("computeStatistics: a missing input or undefined statistic is stored absent with why", () => {
  const runs = ["a", "b", "c"];
  const key = {
    statistic: "kendall_tau_b",
    x: runs.map((r) => ref(r, "P@10")),
    y: runs.map((r) => ref(r, "Cov")),
    topicSet: "all",
  };
  const [partial] = computeStatistics([
    {
      key,
      x: [0.1, 0.2, 0.3],
      y: [0.4, null, 0.1],
      missing: ["b Cov: ratings failed for topic t2"],
    },
  ]);
  assert.deepEqual([partial.value, partial.n, partial.reason], [
    null,
    2,
    "1 of 3 inputs have no stored value: b Cov: ratings failed for topic t2",
  ]);
  const [constant] = computeStatistics([{ key, x: [0.1, 0.2, 0.3], y: [0.5, 0.5, 0.5] }]);
  assert.deepEqual(
    [constant.value, constant.reason],
    [null, "undefined: the second vector is constant (0.5 for all 3)"],
  );
  const [one] = computeStatistics([{
    key: { statistic: "sd", x: [ref("a", "P@10")], topicSet: "all" },
    x: [0.5],
  }]);
  assert.deepEqual([one.value, one.reason], [null, "undefined over 1 value"]);
  assert.throws(
    () => computeStatistics([{ key: { ...key, statistic: "median" }, x: [1, 2, 3] }]),
    /unknown statistic/,
  );
});

Deno.test("the statistics stage stores the tables' statistics; the tables read them and never compute", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await tinyWorkspace(dir);
  try {
    await measureContexts(
      ws,
      [{ generation: "a", run: "bm25" }, { generation: "b" }, { generation: "c" }, {
        generation: "oracle-context",
      }],
      { judge: "human", taus: [3, 5], cutoffs: ["oracle", 10] },
    );
    const judge = {
      name: "lexical",
      rate: () => Promise.reject(new Error("no rating may be asked")),
    };
    await judgeReports(ws, { judge, contextJudge: "human", taus: [5] });
    const opts = { passageJudge: "human", reportJudge: "lexical" };
    const counts = await storeStatistics(ws, opts);
    // Main table: 3 taus and the bootstrap interval bounds of Cov(y) of its 6 conditions
    // with reports (2 x 6); threshold table (t = 3, 5): 5 measures x (2 means, 2 sds, 1 tau);
    // context-size table: 6 measures x 3 depths x 2 report measures over the two pipelines
    // with a ranking here, each absent with its reason (rankings not measured at depth 20,
    // or the two pipelines' rankings alike: tau undefined); the metric correlations'
    // 21 pairs of 7 measures, absent: the sampled contexts are not measured here.
    assert.deepEqual(counts, { values: 40, absent: 36 + 21 });
    const all = await readStatistics(ws);
    const sampled = all.filter((s) => s.key.statistic === "kendall_tau_b_sampled");
    assert.equal(sampled.length, 21);
    // Contexts of bm25 x 2 topics x 16 samples, none with its two measures' values.
    assert.ok(
      sampled.every((s) =>
        s.reason ===
          "32 of 32 inputs have no stored value: 64 value(s) of the sampled contexts not stored"
      ),
      sampled[0].reason,
    );
    const absent = all.filter((s) =>
      s.value === null && s.key.statistic !== "kendall_tau_b_sampled"
    );
    assert.ok(
      absent.every((s) =>
        /^(2 of 2 inputs have no stored value|undefined: (both vectors are|the first vector is) constant)/
          .test(s.reason)
      ),
      absent.map((s) => s.reason).join("\n"),
    );
    let data = await loadCruxData(ws, opts);
    const main = mainTable(data);
    const tau = (m: typeof main, context: string) =>
      m.data.taus.find((x) => x.context === context)!;
    // covZ [1, .75, .5] vs covY [.75, .25, .5]: ab, ac concordant, bc discordant -> 1/3;
    // Den(Z) and Den(y) order the pipelines alike -> 1.
    close(tau(main, "covZ").value, 1 / 3, "covZ vs covY");
    close(tau(main, "andcg").value, 1 / 3, "alpha-nDCG vs covY");
    close(tau(main, "denZ").value, 1, "denZ vs denY");
    const stored = await readStatistics(ws);
    const th = thresholdTable(data).data.stats.find((s) =>
      s.measure === "covZ" && s.threshold === 5
    )!;
    // At t = 5 the pipeline means are [.75, .25, .25]: mean 5/12, sd sqrt(1/12); tau-b
    // against [1, .75, .5]: 2 concordant, one tie in y -> 2 / sqrt(3 * 2).
    close(th.mean, 1.25 / 3, "mean@5");
    close(th.sd, Math.sqrt(1 / 12), "sd@5");
    close(th.tau, 2 / Math.sqrt(6), "tau 3 vs 5");
    // The table's cell names the stored row it shows.
    const id = formatStatisticKey(main.statistics![0].key);
    const cell = main.cells!.find((c) => c.row.startsWith("Kendall") && c.column === "tiny:covZ")!;
    assert.equal(cell.statistic, id);
    assert.equal(cell.reason, "withheld: over 3 pipelines (fewer than 4)");
    // Without the stored row, the cell is blank with the reason: nothing is recomputed.
    await writeStatistics(ws, stored.filter((s) => formatStatisticKey(s.key) !== id));
    data = await loadCruxData(ws, opts);
    const after = mainTable(data);
    assert.ok(Number.isNaN(tau(after, "covZ").value));
    assert.equal(tau(after, "covZ").reason, NOT_STORED);
    close(tau(after, "denZ").value, 1, "the other taus are still read");
    const blank = after.cells!.find((c) =>
      c.row.startsWith("Kendall") && c.column === "tiny:covZ"
    )!;
    assert.deepEqual([blank.reason, blank.derived], [NOT_STORED, undefined]);
    const row = after.table!.rows.find((r) => r.label.startsWith("Kendall"))!;
    assert.equal(row.values["tiny:covZ"], null);
    assert.equal(row.values["tiny:denZ"], "n/a (n=3)");
    assert.ok(
      after.table!.notes!.some((n) => n.startsWith("1 statistic blank: not stored")),
      after.table!.notes!.join("\n"),
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
