import assert from "node:assert/strict";
import { judgeReports } from "@lib/judge/mod.ts";
import { measureContexts } from "@lib/methods/mod.ts";
import type { StoredMeasure } from "@lib/store/mod.ts";
import { mainTable } from "@lib/analysis/main_table.ts";
import { thresholdTable } from "@lib/analysis/threshold_table.ts";
import { contextSizeTable } from "@lib/analysis/context_size_table.ts";
import { loadCruxData } from "@lib/analysis/load_crux_data.ts";
import { tinyExtract } from "@lib/analysis/testdata/tiny_data.ts";
import { tinyWorkspace } from "@lib/analysis/testdata/tiny_workspace.ts";

const close = (a: number | undefined, b: number, what: string) =>
  assert.ok(a !== undefined && Math.abs(a - b) < 1e-12, `${what}: ${a} != ${b}`);

const row = (
  run: string,
  topicId: string,
  measure: string,
  source: string,
  judge: string,
  value: number,
): StoredMeasure => ({ run, topicId, measure, source, judge, value, topics: null });

Deno.test("mainTable shows the measure table's values, not values of its own", () => {
  // Values no computation of the fixture gives: the table must show these.
  const measures = [
    row("a", "t1", "Cov@oracle", "contexts(tau=3)", "human", 0.25),
    row("a", "t2", "Cov@oracle", "contexts(tau=3)", "human", 0.75),
    { ...row("a", "all", "Cov@oracle", "contexts(tau=3)", "human", 0.5), topics: 2 },
    // One topic stored and no run mean: the measure step's topic set was incomplete.
    row("a", "t1", "alpha_nDCG@oracle", "contexts(tau=3)", "human", 0.1),
    row("a", "t1", "Cov", "report", "lexical", 0.2),
    row("a", "t2", "Cov", "report", "lexical", 0.4),
    { ...row("a", "all", "Cov", "report", "lexical", 0.3), topics: 2 },
  ];
  const r = mainTable({ ...tinyExtract(), measures });
  const m = (c: string, k: string) =>
    r.data.means.find((x) => x.condition === c && x.measure === k);
  close(m("a", "covZ")?.value, 0.5, "a covZ = the stored mean");
  assert.equal(m("a", "covZ")?.topics, 2);
  assert.equal(m("a", "andcg"), undefined, "no stored mean: blank, not the one topic's value");
  assert.equal(m("a", "denZ"), undefined, "no Den(Z) stored for a: no value");
  close(m("a", "covY")?.value, 0.3, "a covY");
  // b and c have nothing stored: blank, never scored here.
  assert.equal(m("b", "covZ"), undefined);
  assert.equal(m("c", "covY"), undefined);
  const notes = r.table!.notes!;
  assert.ok(!notes.some((n) => n.includes("scored here")), notes.join("\n"));
  assert.ok(
    notes.includes(
      "No value of α-nDCG: a (no value for topic t2: passage ratings or selection incomplete), " +
        "b (not stored by the measure step), c (not stored by the measure step), " +
        "Oracle context P* (not stored by the measure step).",
    ),
    notes.join("\n"),
  );
});

Deno.test("mainTable states the topic set of its means from the stored rows", () => {
  const mean = (measure: string, source: string, judge: string, topicSet?: string) => ({
    ...row("a", "all", measure, source, judge, 0.5),
    topics: 2,
    ...(topicSet ? { topicSet } : {}),
  });
  const stated = mainTable({
    ...tinyExtract(),
    measures: [
      mean("Cov@oracle", "contexts(tau=3)", "human", "answerable(tau=3,n=2)"),
      mean("alpha_nDCG@oracle", "contexts(tau=3)", "human", "judged(n=2)"),
      mean("Cov", "report", "lexical", "answerable(tau=3,n=2)"),
    ],
  }).table!.notes!;
  assert.ok(
    stated.includes(
      "Means over the topic set answerable(tau=3,n=2) (Cov(Z), Cov(y)); judged(n=2) (α-nDCG).",
    ),
    stated.join("\n"),
  );
  assert.ok(!stated.some((n) => n.startsWith("Mean over")));
  // A stored mean without a topic set (an older workspace): the count of topics averaged.
  const older = mainTable({
    ...tinyExtract(),
    measures: [
      mean("Cov@oracle", "contexts(tau=3)", "human", "answerable(tau=3,n=2)"),
      mean("Cov", "report", "lexical"),
    ],
  }).table!.notes!;
  assert.ok(older.includes("Mean over 2 topics."), older.join("\n"));
});

Deno.test("mainTable at tau 5 reads Cov(tau=5) of the reports, never the tau-3 values", () => {
  const measures = [
    row("a", "t1", "Cov@oracle", "contexts(tau=5)", "human", 1),
    row("a", "t1", "Cov", "report", "lexical", 0.9),
    row("a", "all", "Cov", "report", "lexical", 0.9),
    row("a", "t1", "Cov(tau=5)", "report", "lexical", 0.6),
    row("a", "all", "Cov(tau=5)", "report", "lexical", 0.6),
  ];
  const r = mainTable({ ...tinyExtract(), measures }, { tau: 5 });
  const covY = r.data.means.find((x) => x.condition === "a" && x.measure === "covY");
  close(covY?.value, 0.6, "a covY at tau 5");
});

Deno.test("main, threshold and context-size tables equal the rows the measure and judge steps stored", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await tinyWorkspace(dir);
  try {
    // The measure step: contexts of every generation with contexts, rankings of bm25.
    await measureContexts(
      ws,
      [
        { generation: "a", run: "bm25" },
        { generation: "b" },
        { generation: "c" },
        { generation: "oracle-context" },
      ],
      { judge: "human", taus: [3, 5], cutoffs: ["oracle", 10] },
    );
    // The judge step over the stored report ratings (every pair is rated: no call).
    const judge = {
      name: "lexical",
      rate: () => Promise.reject(new Error("no rating may be asked")),
    };
    await judgeReports(ws, { judge, contextJudge: "human", taus: [5] });
    const data = await loadCruxData(ws, { passageJudge: "human", reportJudge: "lexical" });
    const stored = (run: string, measure: string, source: string) =>
      data.measures!.filter((r) => r.run === run && r.measure === measure && r.source === source)
        .filter((r) => r.topicId !== "all");
    const mean = (xs: StoredMeasure[]) => xs.reduce((s, r) => s + r.value, 0) / xs.length;
    const main = mainTable(data);
    const m = (c: string, k: string) =>
      main.data.means.find((x) => x.condition === c && x.measure === k)?.value;
    // The stored values, and the hand-checked ones of main_table_test.
    close(m("b", "covZ"), mean(stored("b", "Cov@oracle", "contexts(tau=3)")), "b covZ");
    close(m("b", "covZ"), 0.75, "b covZ by hand");
    close(m("c", "covY"), mean(stored("c", "Cov", "report")), "c covY");
    close(m("c", "covY"), 0.5, "c covY by hand");
    close(m("b", "denZ"), (Math.sqrt(200 / 150) + Math.sqrt(0.5)) / 2, "b denZ by hand");
    close(m("oracle-context", "denZ"), 1, "P* has density 1");
    assert.ok(
      !main.table!.notes!.some((n) => n.startsWith("Not stored")),
      main.table!.notes!.join("\n"),
    );
    // Threshold table at tau 5: a's t1 report [5, 4, 0] answers q1 of A(5) = {q1}; t2 [5, 0] half.
    const th = thresholdTable(data, { conditions: [] }).data;
    assert.equal(th.means.length, 0);
    const t5 = thresholdTable(data).data.means.filter((x) => x.threshold === 5);
    close(t5.find((x) => x.condition === "a" && x.measure === "covY")?.value, 0.75, "a covY@5");
    close(
      t5.find((x) => x.condition === "a" && x.measure === "covY")?.value,
      mean(stored("a", "Cov(tau=5)", "report")),
      "a covY@5 stored",
    );
    // Context-size table: bm25's ranking values as stored under ranking(tau=3).
    const cs = contextSizeTable(data, {
      conditions: [{ name: "a", label: "a", kind: "pipeline", generation: "a", run: "bm25" }],
      cutoffs: ["oracle", 10],
    });
    const at10 = cs.data.means.find((x) => x.cutoff === 10 && x.measure === "covZ");
    close(at10?.value, mean(stored("bm25", "Cov@10", "ranking(tau=3)")), "bm25 Cov@10");
    // bm25's top 10 holds every passage of both topics: A covered fully.
    close(at10?.value, 1, "bm25 Cov@10 by hand");
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
