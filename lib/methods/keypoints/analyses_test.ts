import assert from "node:assert/strict";
import { methodStages } from "@lib/methods/mod.ts";
import { openWorkspace, readMeasures } from "@lib/store/mod.ts";
import { runStages } from "@lib/pipeline/mod.ts";
import { type Analysis, cellTopicSets, saveAnalysis } from "@lib/analysis/mod.ts";
import { checkCells } from "../../../tests/support/check_cells.ts";
import { keyPointAnalyses } from "./analyses.ts";
import { bucketOf } from "./buckets.ts";
import { measureKeyPointCounts } from "./work.ts";

async function workspace(dir?: string) {
  const ws = await openWorkspace(dir ?? await Deno.makeTempDir());
  await ws.upsert("topics", [{
    topicId: "t1",
    request: "When did the bridge open, and its tolls?",
  }]);
  await ws.upsert("passages", [
    {
      passageId: "a",
      topicId: "t1",
      docId: "d1",
      text: "The bridge opened in 1932 to cars.",
      tokens: 300,
    },
    {
      passageId: "b",
      topicId: "t1",
      docId: "d2",
      text: "In 1932 the bridge opened to traffic. The tolls were dropped in 1990.",
      tokens: 400,
    },
  ]);
  await ws.upsert(
    "qrels",
    ["a", "b"].map((docId) => ({ name: "crux_pr", topicId: "t1", subtopic: "0", docId, grade: 3 })),
  );
  const gen = (run: string, text: string, contextIds: string[], tokens: number) => ({
    run,
    topicId: "t1",
    text,
    condition: run,
    backend: "extractive",
    contextIds,
    tokens,
  });
  await ws.upsert("generations", [
    gen("rag", "The bridge opened in 1932. The tolls were dropped in 1990.", ["a", "b"], 150),
    gen("short", "The bridge opened in 1932.", ["a"], 50),
    gen("direct", "No idea.", [], 20),
  ]);
  const cov = (run: string, value: number) => ({
    run,
    topicId: "all",
    measure: "Cov",
    name: "Cov",
    cutoff: "",
    method: "crux",
    judge: "lexical",
    source: "report",
    value,
    topics: 1,
  });
  await ws.upsert("measures", [cov("rag", 0.8), cov("short", 0.5), cov("direct", 0.1)]);
  const specs = await methodStages("keypoints", {}, {
    backend: "offline",
    answerRuns: ["rag", "short", "direct"],
    answerStages: [],
    dataStages: [],
    judgeStages: [],
    outDir: "x",
    configFile: "x",
  });
  await runStages(ws, specs, { order: ["judge", "measure"] });
  return ws;
}

Deno.test("bucketOf labels lengths by edges", () => {
  assert.deepEqual([50, 100, 250, 999].map((n) => bucketOf(n, [100, 250]).label), [
    "<100",
    "100-250",
    ">=250",
    ">=250",
  ]);
});

Deno.test("keyPointAnalyses: scores, span checks, merge map, length buckets, KPR against Cov(y)", async () => {
  const ws = await workspace();
  const a = await keyPointAnalyses(ws, { buckets: { input: [500], response: [100] } });
  assert.deepEqual(a.map((x) => x.name), [
    "keypoint_scores",
    "keypoint_extraction",
    "keypoint_merge_map",
    "keypoint_length_input",
    "keypoint_length_response",
    "keypoint_vs_crux",
  ]);
  // Merged key points: k1 (the two opening sentences), k2 (tolls). rag covers both, short one, direct none.
  const scores = a[0].data as { run: string; KPR: number; KPP: number | null }[];
  assert.deepEqual(scores.map((s) => [s.run, s.KPR, s.KPP]), [["direct", 0, null], ["rag", 1, 1], [
    "short",
    0.5,
    1,
  ]]);
  assert.match(
    a[0].table!.notes!.join(" | "),
    /offline backends: salient sentences, lexical merging, lexical entailment \| key points of a topic come from its oracle passages P\*/,
  );
  const ex = a[1].data as {
    topic: string;
    original: number;
    exact: number;
    notFound: number;
    merged: number;
  }[];
  assert.deepEqual(ex, [{
    topic: "t1",
    documents: 2,
    original: 3,
    exact: 3,
    normalized: 0,
    notFound: 0,
    flagged: 0,
    merged: 2,
    unusable: 0,
  }]);
  const map = a[2].data as { id: string; originals: string[] }[];
  assert.deepEqual(map.map((m) => [m.id, m.originals]), [["k1", ["o1 (a)", "o2 (b)"]], ["k2", [
    "o3 (b)",
  ]]]);
  // Input: rag 700 tokens (>=500), short 300 (<500); direct has no input documents and is
  // not bucketed. Response: rag 150 (>=100), short, direct <100.
  assert.deepEqual(
    (a[3].data as { run: string; bucket: string; value: number }[]).map((
      d,
    ) => [d.run, d.bucket, d.value]),
    [
      ["short", "<500", 0.5],
      ["rag", ">=500", 1],
    ],
  );
  assert.match(
    (a[3].figure!.title as { subtitle: string[] }).subtitle.join(" "),
    /^tokens of the documents given to the response; not bucketed \(no input documents\): direct /,
  );
  // Within a bucket, runs come in name order, whatever order their reports were stored in.
  assert.deepEqual((a[4].data as { run: string; bucket: string }[]).map((d) => [d.run, d.bucket]), [
    ["direct", "<100"],
    ["short", "<100"],
    ["rag", ">=100"],
  ]);
  const vs = a[5].data as { runs: unknown[]; kendallTau: number };
  assert.equal(vs.runs.length, 3);
  assert.equal(vs.kendallTau, 1); // Cov(y) 0.1 < 0.5 < 0.8 and KPR 0 < 0.5 < 1
  assert.ok(a[5].figure);
  ws.close();
});

Deno.test("keyPointAnalyses: a run whose reports are all empty is left out of KPR against Cov(y), and named", async () => {
  const ws = await workspace();
  try {
    // direct's one report emptied: its stored KPR 0 and Cov(y) 0.1 stay, but measure nothing.
    await ws.upsert("generations", [
      { run: "direct", topicId: "t1", text: " ", condition: "direct", backend: "extractive" },
    ]);
    const vs = (await keyPointAnalyses(ws, { buckets: { input: [500], response: [100] } }))
      .find((a) => a.name === "keypoint_vs_crux")!;
    const data = vs.data as { runs: { run: string }[]; kendallTau: number | null };
    // rag (Cov(y) 0.8, KPR 1) and short (0.5, 0.5) remain: 2 runs, too few for a correlation.
    assert.deepEqual(data.runs.map((p) => p.run).sort(), ["rag", "short"]);
    assert.equal(data.kendallTau, null);
    assert.deepEqual(vs.table!.notes!.slice(1), [
      "direct left out: all 1 report empty",
      "fewer than 3 runs with both scores: no correlation",
    ]);
    assert.match(
      (vs.figure!.title as { subtitle: string[] }).subtitle.join(" "),
      /over 2 runs; direct left out: all 1 report empty/,
    );
  } finally {
    ws.close();
  }
});

Deno.test("keyPointAnalyses: the extraction table shows the stored counts; a topic whose extraction failed has no count row and blank cells with the reason", async () => {
  const dir = await Deno.makeTempDir();
  const outDir = await Deno.makeTempDir();
  const ws = await workspace(dir);
  try {
    const source = "extracted:offline-salient";
    // t2's one passage gave no usable answer (stored by the extract step), then counted again.
    await ws.upsert("topics", [{ topicId: "t2", request: "What is the toll?" }]);
    await ws.insert("keypoint_problems", [{
      step: "extract",
      topicId: "t2",
      item: "c",
      status: "failed",
      reason: "timeout",
      backend: "offline-salient",
    }]);
    assert.deepEqual(await measureKeyPointCounts(ws, source), { rows: 8 + 1 + 8, failed: ["t2"] });
    const stored = await readMeasures(ws, { method: "keypoints", run: "", topicId: "t2" });
    assert.deepEqual(stored.map((r) => [r.measure, r.value]), [["kp_unusable", 1]]);

    const withSets = await cellTopicSets(ws);
    const all = await keyPointAnalyses(ws, { buckets: { input: [500], response: [100] } });
    const ex = withSets(all.find((a) => a.name === "keypoint_extraction")!) as Analysis;
    // t1 by hand: 3 originals from 2 documents, spans all exact, merged into 2.
    assert.deepEqual(ex.table!.rows.map((r) => [r.label, r.values]), [
      ["t1", {
        documents: 2,
        original: 3,
        exact: 3,
        normalized: 0,
        notFound: 0,
        flagged: 0,
        merged: 2,
        unusable: 0,
      }],
      ["t2", {
        documents: null,
        original: null,
        exact: null,
        normalized: null,
        notFound: null,
        flagged: null,
        merged: null,
        unusable: 1,
      }],
      // Totals over t1 alone; the unusable answers over both topics.
      ["all", {
        documents: 2,
        original: 3,
        exact: 3,
        normalized: 0,
        notFound: 0,
        flagged: 0,
        merged: 2,
        unusable: 1,
      }],
    ]);
    const cell = (row: string, column: string) =>
      ex.cells!.find((c) => c.row === row && c.column === column);
    assert.deepEqual(cell("t2", "original"), {
      row: "t2",
      index: 1,
      column: "original",
      reason:
        "extraction failed for a passage of this topic: its key points are incomplete, not counted",
    });
    assert.deepEqual(cell("all", "original")!.key, {
      run: "",
      source,
      judge: "",
      measure: "kp_original",
      topicId: "all",
      topicSet: "judged(n=1)",
    });
    assert.equal(cell("all", "unusable")!.key!.topicSet, "judged(n=2)");
    assert.ok(
      ex.table!.notes!.includes(
        "extraction failed for a passage of t2: key points not counted; totals over the other topics",
      ),
    );
    // Topics of the scores table: the stored KPR mean's topics, named by its key.
    const scores = withSets(all.find((a) => a.name === "keypoint_scores")!) as Analysis;
    const topics = scores.cells!.find((c) => c.row === "rag" && c.column === "topics")!;
    assert.equal(topics.shows, "topics");
    assert.equal(topics.key!.measure, "KPR");
    assert.equal(topics.derived, undefined);

    // Saved: every number is its stored row (a topic count its row's `topics`), every blank has a reason.
    await saveAnalysis(ex, outDir);
    await saveAnalysis(scores, outDir);
    ws.close();
    const checked = await checkCells(outDir, dir);
    // Extraction: 8 + 1 + 8 shown, 7 blank; scores: 3 runs x (6 measures + topics), direct's KPP and KPF blank.
    assert.deepEqual([checked.stored, checked.derived, checked.blank], [17 + 19, 0, 7 + 2]);
    // A topic count that is not its row's fails the check.
    const csv = `${outDir}/tables/keypoint_scores.csv`;
    const text = await Deno.readTextFile(csv);
    await Deno.writeTextFile(csv, text.replace(/,1\n/g, ",2\n"));
    await assert.rejects(
      () => checkCells(outDir, dir),
      /keypoint_scores\.cells\.jsonl:\d+ \(direct \/ Topics\): shows 2, the stored row's topics are 1/,
    );
  } finally {
    try {
      ws.close();
    } catch { /* closed above */ }
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outDir, { recursive: true });
  }
});
