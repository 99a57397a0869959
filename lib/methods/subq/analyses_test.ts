import assert from "node:assert/strict";
import type { Analysis } from "@lib/analysis/mod.ts";
import { computeStatistics } from "@lib/analysis/mod.ts";
import { openWorkspace, readMeasures, writeStatistics } from "@lib/store/mod.ts";
import { subqAnalyses } from "./analyses.ts";
import { measureSubq } from "./measure_subq.ts";

const sha = async (t: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(t)))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");

Deno.test("subqAnalyses: four cells, #1-#6 with ranks, preferences and win rates by hand", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-subq-an-" });
  const ws = await openWorkspace(dir);
  try {
    const judge = "lexical coverage (offline)";
    await ws.upsert("passages", [
      { passageId: "t:0#0", topicId: "t", docId: "t:0", text: "P zero." },
      { passageId: "t:0#1", topicId: "t", docId: "t:0", text: "P one." },
    ]);
    await ws.upsert("generations", [
      {
        run: "good",
        topicId: "t",
        text: "Good answer.",
        condition: "rag",
        contextIds: ["t:0#0", "t:0#1"],
      },
      { run: "poor", topicId: "t", text: "Poor answer.", condition: "direct", contextIds: [] },
    ]);
    const subs = [["c1", "core"], ["c2", "core"], ["b1", "background"], ["f1", "follow-up"]];
    await ws.upsert(
      "subq_questions",
      subs.map(([text, type], i) => ({
        topicId: "t",
        source: "decompose",
        ordinal: i + 1,
        text,
        type,
        decomposer: "noun-phrase templates (offline)",
        classifier: "type heuristic (offline)",
      })),
    );
    // good: answers c1 (at 10 %), b1 (at 50 %), f1 (at 90 %); chunk 0 answers c1 and c2, chunk 1 c1.
    // poor: answers c2 (at 0 %) only.
    const cov: [string, string, boolean, number | null][] = [
      ["Good answer.", "c1", true, 10],
      ["Good answer.", "c2", false, null],
      ["Good answer.", "b1", true, 50],
      ["Good answer.", "f1", true, 90],
      ["P zero.", "c1", true, 0],
      ["P zero.", "c2", true, 0],
      ["P zero.", "b1", false, null],
      ["P zero.", "f1", false, null],
      ["P one.", "c1", true, 0],
      ["P one.", "c2", false, null],
      ["P one.", "b1", false, null],
      ["P one.", "f1", false, null],
      ["Poor answer.", "c1", false, null],
      ["Poor answer.", "c2", true, 0],
      ["Poor answer.", "b1", false, null],
      ["Poor answer.", "f1", false, null],
    ];
    await ws.upsert(
      "subq_coverage",
      await Promise.all(cov.map(async ([text, sub, answered, position]) => ({
        textKey: await sha(text),
        subQuestion: sub,
        judge,
        answered,
        span: "",
        spanFound: null,
        position,
        status: "ok",
      }))),
    );
    await ws.upsert("subq_pairwise", [
      {
        topicId: "t",
        runA: "good",
        runB: "poor",
        judge: "m",
        forward: "A",
        swapped: "A",
        verdict: "A",
      },
      {
        topicId: "u",
        runA: "good",
        runB: "poor",
        judge: "m",
        forward: "A",
        swapped: "B",
        verdict: "tie",
      },
    ]);
    const items = (c: boolean, f: boolean) =>
      JSON.stringify([{ type: "core", answered: c }, { type: "follow-up", answered: f }]);
    await ws.upsert("subq_preferences", [
      {
        source: "p.jsonl",
        pair: 1,
        question: "Q",
        preference: 1,
        human: "A",
        itemsA: items(true, false),
        itemsB: items(false, false),
        judge,
        pairwiseJudge: "m",
        pairwise: "A",
      },
      {
        source: "p.jsonl",
        pair: 2,
        question: "Q",
        preference: -1,
        human: "B",
        itemsA: items(true, true),
        itemsB: items(true, false),
        judge,
        pairwiseJudge: "m",
        pairwise: "tie",
      },
      {
        source: "p.jsonl",
        pair: 3,
        question: "Q",
        preference: 0,
        human: "tie",
        itemsA: items(true, true),
        itemsB: items(true, false),
        judge,
        pairwiseJudge: "m",
        pairwise: "B",
      },
    ]);
    // Before the measure stage the cells are blank: the table computes no share itself.
    const cell = (a: Analysis, row: string, column: string) =>
      a.cells!.find((c) => c.row === row && c.column === column)!;
    const before = await subqAnalyses(ws);
    const unmeasured = before[0];
    assert.equal(
      cell(before[2], "hybrid rating", "acc").reason,
      "not stored: run the measure:subq stage",
    );
    assert.equal(
      cell(unmeasured, "good · core", "a").reason,
      "not stored: run the measure:subq stage",
    );
    assert.deepEqual(unmeasured.table!.rows[0].values, {
      ar: null,
      an: null,
      nr: null,
      nn: null,
      a: null,
      n: null,
    });
    const measured = await measureSubq(ws, { runs: ["good", "poor"], judge, source: "decompose" });
    // good: 4 x 3 cells, 3 answered shares and 3 counts; poor (no chunks): 3 shares, 3 counts.
    const cellRows = (await readMeasures(ws, { method: "subq", measurePrefix: "subq_pct_" }))
      .length + (await readMeasures(ws, { method: "subq", measurePrefix: "subq_count_" })).length;
    assert.equal(cellRows, 18 + 6);
    assert.equal(measured.runs, 2);
    // The ranks are the statistics stage's rows (as it computes the analyses' statistics).
    const asked = (await subqAnalyses(ws)).flatMap((a) => a.statistics ?? []);
    // One rank per shown value: good has all nine, poor (no chunks, no background
    // position) #1 by type and the rating.
    assert.equal(asked.filter((r) => r.key.statistic === "rank").length, 9 + 4);
    await writeStatistics(ws, computeStatistics(asked));
    const out = await subqAnalyses(ws);
    assert.deepEqual(out.map((a) => a.name), [
      "subq_cells",
      "subq_metrics",
      "subq_preferences",
      "subq_win_rates",
    ]);
    const cells = out[0].table!;
    const row = (label: string) => cells.rows.find((r) => r.label === label)!.values;
    // good, core: c1 answered and retrieved, c2 retrieved only -> 50 / 0 / 50 / 0.
    assert.deepEqual(row("good · core"), { ar: 50, an: 0, nr: 50, nn: 0, a: 50, n: 2 });
    assert.deepEqual(row("good · follow-up"), { ar: 0, an: 100, nr: 0, nn: 0, a: 100, n: 1 });
    // poor has no chunks: R cells empty.
    assert.deepEqual(row("poor · core"), { ar: null, an: null, nr: null, nn: null, a: 50, n: 2 });
    // Each cell names its stored row; poor's R cells are blank with why.
    assert.deepEqual(cell(out[0], "good · follow-up", "an").key, {
      run: "good",
      source: "decompose",
      judge,
      measure: "subq_pct_answered_not_retrieved_follow-up",
      topicId: "all",
    });
    assert.equal(
      cell(out[0], "poor · core", "ar").reason,
      "no retrieved chunks for this system's answers",
    );
    assert.ok(cells.notes!.some((n) => n.startsWith("offline backends:")));
    const metrics = out[1].table!;
    const g = metrics.rows.find((r) => r.label === "good")!.values;
    const p = metrics.rows.find((r) => r.label === "poor")!.values;
    // good: #3 (1/2)/(2/2) = 0.5; #4 P(!a,!r)=0 / P(!a)=1/2 = 0; #5 mean(1) - mean(0.5) = 0.5;
    // #6 90 - (10 + 50) / 2 = 60; rating 0.5 + 0.5 - 1 = 0.
    assert.deepEqual([g.m3, g.m4, g.m5, g.m6, g.rating], [0.5, 0, 0.5, 60, 0]);
    // poor: rating 0.5 (core 1/2); ranks: rating poor 1, good 2; follow-up coverage lower is better.
    assert.deepEqual([p.rating, p.rating_rank, g.rating_rank, p.a_fu_rank, g.a_fu_rank], [
      0.5,
      1,
      2,
      1,
      2,
    ]);
    assert.equal(p.m3, null);
    const prefs = out[2].table!;
    const acc = Object.fromEntries(prefs.rows.map((r) => [r.label, r.values.acc]));
    // pair 1: core-only hit, hybrid hit (1 vs 0), judge hit; pair 2 (human B): core-only tie = miss,
    // hybrid 0 vs 1 -> hit; judge tie = miss. Pair 3 (human tie) removed.
    assert.equal(acc["core-only rating (1, 0, 0)"], 0.5);
    assert.equal(acc["hybrid rating"], 1);
    assert.equal(acc["pairwise judge (both orders)"], 0.5);
    // Each is the stored row of measure:subq (the pairwise judge's under its name).
    assert.deepEqual(cell(out[2], "pairwise judge (both orders)", "acc").key, {
      run: "pairwise",
      source: "preferences:p.jsonl",
      judge: "m",
      measure: "subq_preference_accuracy",
      topicId: "all",
    });
    assert.equal(prefs.rows[0].values.pairs, 2);
    assert.ok(prefs.notes!.includes(
      "1 of 3 pairs are ties and left out; equal ratings and judge ties count as misses.",
    ));
    const wins = out[3];
    assert.deepEqual(wins.table!.rows.map((r) => r.values), [{ c0: null, c1: 0.75 }, {
      c0: 0.25,
      c1: null,
    }]);
    assert.ok(wins.figure);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
