import assert from "node:assert/strict";
import {
  loadCruxData,
  metricCorrelations,
  sampledContexts,
  storeStatistics,
} from "@lib/analysis/mod.ts";
import { tinyWorkspace } from "@lib/analysis/testdata/tiny_workspace.ts";
import { deleteMeasures, readMeasures } from "@lib/store/mod.ts";
import { measureSampledContexts } from "./measure_sampled_contexts.ts";

const settings = sampledContexts.settings({ samples: 3, size: 2, depth: 4, seed: 42 });
const SOURCE = "sample(tau=3,n=3,k=2,depth=4,seed=42)";

Deno.test("measureSampledContexts: stored values of a drawn context equal the hand computation", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await tinyWorkspace(dir);
  try {
    const n = await measureSampledContexts(ws, { runs: ["bm25"], judge: "human", settings });
    // Two topics x three samples x seven measures.
    assert.equal(n, 2 * 3 * 7);
    const rows = await readMeasures(ws, { run: "bm25#sample1", topicId: "t1" });
    const v = (measure: string) => {
      const r = rows.filter((x) => x.measure === measure);
      assert.equal(r.length, 1, `one stored ${measure}`);
      assert.equal(r[0].source, SOURCE);
      assert.equal(r[0].judge, "human");
      assert.equal(r[0].topicSet, "topic(id=t1)");
      return r[0].value as number;
    };
    // bm25 on t1 ranks [1#3, 1#2, 0#0, 0#1]. Seed 42 draws 0.6011 -> index 2, then 0.4483 ->
    // index 1 + floor(0.4483 * 3) = 2, which now holds index 0: the context is [1#3, 0#0].
    // A(3) = {q1, q2}; 1#3 rates q1 4 and q2 3, 0#0 rates q1 5: both answered.
    assert.equal(v("Cov@2"), 1);
    // Required passages (grade 3): 0#0 and 0#1; the context holds 0#0, at rank 2.
    assert.equal(v("R(rel=3)@2"), 0.5);
    assert.equal(v("P(rel=3)@2"), 0.5);
    assert.equal(v("AP(rel=3)@2"), 0.5 / 2);
    // nDCG with the graded qrels (1#3: 2, 0#0: 3) against the ideal [3, 3].
    const dcg = 2 + 3 / Math.log2(3);
    assert.ok(Math.abs(v("nDCG@2") - dcg / (3 + 3 / Math.log2(3))) < 1e-12);
    // alpha-nDCG (alpha 0.5, sub-questions rated >= 3 as subtopics): 1#3 covers q1 and q2,
    // then 0#0 covers q1 again (gain 0.5); the ideal order gains the same.
    assert.ok(Math.abs(v("alpha_nDCG@2") - 1) < 1e-12);
    assert.equal(rows.length, 7);
    // Every drawn context of both topics is stored.
    const all = await readMeasures(ws, { sourcePrefix: "sample(", measure: "Cov@2" });
    assert.deepEqual(
      all.map((r) => `${r.run} ${r.topicId}`).sort(),
      ["t1", "t2"].flatMap((t) => [1, 2, 3].map((i) => `bm25#sample${i} ${t}`)).sort(),
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("measureSampledContexts: a re-run replaces the earlier draw's rows", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await tinyWorkspace(dir);
  try {
    await measureSampledContexts(ws, { runs: ["bm25"], judge: "human", settings });
    const other = sampledContexts.settings({ samples: 2, size: 2, depth: 4, seed: 7 });
    const notes: string[] = [];
    await measureSampledContexts(ws, {
      runs: ["bm25", "dense"],
      judge: "human",
      settings: other,
      onNote: (m) => notes.push(m),
    });
    const rows = await readMeasures(ws, { sourcePrefix: "sample(" });
    assert.deepEqual([...new Set(rows.map((r) => r.source))], [
      "sample(tau=3,n=2,k=2,depth=4,seed=7)",
    ]);
    assert.equal(rows.length, 2 * 2 * 7);
    assert.deepEqual(notes, ['Run "dense" has no rows: no contexts drawn from it']);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("metricCorrelations shows the statistics stage's rows: a deleted row blanks its pairs, nothing is recomputed", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await tinyWorkspace(dir);
  try {
    await measureSampledContexts(ws, { runs: ["bm25"], judge: "human", settings });
    const opts = { runs: ["bm25"], samples: 3, size: 2, depth: 4, seed: 42 };
    const judges = { passageJudge: "human", reportJudge: "lexical" };
    const load = () => loadCruxData(ws, judges);
    // Before the statistics stage every pair is blank: the view computes no tau.
    const unstored = metricCorrelations(await load(), opts);
    assert.deepEqual(unstored.data.pairs, []);
    assert.equal(unstored.statistics!.length, 21);
    assert.equal(
      unstored.cells!.find((c) => c.row === "Recall" && c.column !== "Recall")!.reason,
      "not stored: the statistics stage has not computed it",
    );
    await storeStatistics(ws, { ...judges, correlation: opts });
    const before = metricCorrelations(await load(), opts);
    assert.equal(before.data.contexts, 6);
    // Every value shown is a stored row.
    const stored = await readMeasures(ws, { sourcePrefix: "sample(" });
    assert.equal(before.data.values.length, stored.length);
    const pair = (r: typeof before, a: string, b: string) =>
      r.data.pairs.find((p) => p.a === a && p.b === b)?.value;
    // Cov(Z) is 1 in every sampled context: its pairs are undefined, and say so.
    const covCell = (r: typeof before) =>
      r.cells!.find((c) => c.row === "Cov(Z)" && c.column !== "Cov(Z)")!;
    assert.equal(covCell(before).reason, "undefined: the first vector is constant (1 for all 6)");
    assert.equal(pair(before, "α-nDCG", "Recall"), -1);
    assert.equal(pair(before, "Recall", "MAP"), 1);
    assert.equal(
      await deleteMeasures(ws, { run: "bm25#sample2", topicId: "t2", measure: "alpha_nDCG@2" }),
      1,
    );
    // The statistics stored before the row was deleted are not shown for the pairs it feeds.
    const stale = metricCorrelations(await load(), opts);
    assert.equal(pair(stale, "α-nDCG", "Recall"), undefined);
    await storeStatistics(ws, { ...judges, correlation: opts });
    const after = metricCorrelations(await load(), opts);
    // alpha-nDCG's pairs are blank, with the missing row named; the others are unchanged.
    assert.equal(pair(after, "α-nDCG", "Recall"), undefined);
    assert.equal(after.data.pairs.length, before.data.pairs.length - 5);
    assert.equal(pair(after, "Recall", "MAP"), 1);
    const cell = after.cells!.find((c) => c.row === "α-nDCG" && c.column !== "α-nDCG")!;
    assert.equal(cell.derived, undefined);
    assert.equal(
      cell.reason,
      `not stored: 1 value(s) of the sampled contexts, e.g. bm25#sample2|${SOURCE}|human|alpha_nDCG@2|t2 (run the measure:samples stage)`,
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
