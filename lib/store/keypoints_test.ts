import assert from "node:assert/strict";
import {
  countKeyPointProblems,
  openWorkspace,
  readKeypointRows,
  readKeyPointsOfSource,
  readKeypointSources,
  writeKeypointRows,
} from "./mod.ts";
import {
  clearKeyPointJudgments,
  clearKeyPointSource,
  clearKeyPointStep,
  readKeyPointLabels,
  readKeyPointStatements,
} from "./keypoints.ts";

Deno.test("key point rows: sources of a level in name order, rows of one level and source", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const kp = (keypointId: string, level: string, source: string) => ({
      topicId: "t1",
      keypointId,
      level,
      text: `${keypointId} point`,
      docId: level === "original" ? "d1" : null,
      spans: ["a span"],
      spanStatus: level === "original" ? ["exact"] : null,
      mergedFrom: level === "merged" ? ["o1"] : [],
      source,
    });
    await writeKeypointRows(ws, [
      kp("o1", "original", "file:b.jsonl"),
      kp("o1", "original", "extracted:offline"),
      kp("k1", "merged", "extracted:offline"),
    ]);
    assert.deepEqual(await readKeypointSources(ws, "original"), [
      "extracted:offline",
      "file:b.jsonl",
    ]);
    assert.deepEqual(await readKeypointSources(ws, "merged"), ["extracted:offline"]);
    assert.deepEqual(await readKeypointRows(ws, "merged", "extracted:offline"), [
      {
        topicId: "t1",
        keypointId: "k1",
        text: "k1 point",
        docId: null,
        spans: ["a span"],
        spanStatus: null,
        mergedFrom: ["o1"],
      },
    ]);
    assert.deepEqual(
      (await readKeypointRows(ws, "original", "file:b.jsonl")).map((r) => [r.docId, r.spanStatus]),
      [["d1", ["exact"]]],
    );
    assert.deepEqual(await readKeypointRows(ws, "merged", "file:b.jsonl"), []);
  } finally {
    ws.close();
  }
});

Deno.test("key point reads: the points of one source; extract and merge problems per topic", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const kp = (keypointId: string, level: string, source: string) => ({
      topicId: "t",
      keypointId,
      level,
      text: `point ${keypointId}`,
      docId: level === "original" ? "t:0" : null,
      spans: level === "original" ? ["a span"] : [],
      spanStatus: level === "original" ? ["exact"] : null,
      mergedFrom: level === "merged" ? ["o1", "o2"] : [],
      round: 1,
      source,
    });
    await ws.upsert("keypoints", [
      kp("o1", "original", "s"),
      kp("m1", "merged", "s"),
      kp("o1", "original", "other"),
    ]);
    const points = (await readKeyPointsOfSource(ws, "s"))
      .sort((a, b) => a.keypointId < b.keypointId ? -1 : 1);
    assert.deepEqual(points, [
      {
        topicId: "t",
        keypointId: "m1",
        level: "merged",
        text: "point m1",
        docId: null,
        spanStatus: null,
        mergedFrom: ["o1", "o2"],
        spans: [],
      },
      {
        topicId: "t",
        keypointId: "o1",
        level: "original",
        text: "point o1",
        docId: "t:0",
        spanStatus: ["exact"],
        mergedFrom: [],
        spans: ["a span"],
      },
    ]);
    const problem = (step: string, topicId: string) => ({
      step,
      topicId,
      item: "x",
      status: "unparsed",
    });
    await ws.insert("keypoint_problems", [
      problem("extract", "t"),
      problem("merge", "t"),
      problem("entail", "t"),
      problem("extract", "u"),
    ]);
    assert.deepEqual(
      (await countKeyPointProblems(ws)).sort((a, b) =>
        a.topicId < b.topicId ? -1 : a.topicId > b.topicId ? 1 : a.step < b.step ? -1 : 1
      ),
      [
        { topicId: "t", step: "extract", n: 1 },
        { topicId: "t", step: "merge", n: 1 },
        { topicId: "u", step: "extract", n: 1 },
      ],
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("key point clears delete exactly one step's, source's or run's rows; reads select and order", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const kp = (keypointId: string, level: string, source: string) => ({
      topicId: "t1",
      keypointId,
      level,
      text: keypointId,
      source,
    });
    await ws.insert("keypoints", [
      kp("o1", "original", "merged"),
      kp("k1", "merged", "merged"),
      kp("k1", "merged", "file:kp.jsonl"),
    ]);
    const problem = (step: string, item: string) => ({ step, topicId: "t1", item, status: "x" });
    await ws.insert("keypoint_problems", [
      problem("extract", "d1"),
      problem("merge", "t1"),
      problem("entail", "rag"),
      problem("support", "rag"),
      problem("entail", "direct"),
    ]);
    const label = (run: string, keypointId: string, judge: string, l: string | null) => ({
      run,
      topicId: "t1",
      keypointId,
      label: l,
      judge,
      source: "merged",
    });
    await ws.insert("keypoint_labels", [
      label("rag", "k1", "j", "yes"),
      label("direct", "k1", "j", null),
      label("direct", "k1", "other", "no"),
    ]);
    const st = (run: string, topicId: string, ordinal: number, supported: boolean) => ({
      run,
      topicId,
      ordinal,
      text: "s",
      supported,
      judge: "j",
    });
    await ws.insert("keypoint_statements", [
      st("rag", "t2", 0, true),
      st("rag", "t1", 1, false),
      st("rag", "t1", 0, true),
      st("direct", "t1", 0, false),
    ]);
    const keys = async () =>
      (await ws.query<{ k: string }>(
        "SELECT keypoint_id || '/' || level || '/' || source AS k FROM keypoints ORDER BY k",
      )).map((r) => r.k);
    const problems = async () =>
      (await ws.query<{ k: string }>(
        "SELECT step || '/' || item AS k FROM keypoint_problems ORDER BY k",
      )).map((r) => r.k);

    assert.deepEqual(
      (await readKeyPointLabels(ws, "j", "merged")).map((l) => `${l.runId} ${l.label}`).sort(),
      ["direct null", "rag yes"],
    );
    assert.deepEqual(
      (await readKeyPointStatements(ws, "j")).map((s) => `${s.runId} ${s.qid} ${s.supported}`),
      ["direct t1 false", "rag t1 true", "rag t1 false", "rag t2 true"],
    );

    await clearKeyPointStep(ws, "merge");
    assert.deepEqual(await keys(), ["o1/original/merged"]);
    assert.deepEqual(await problems(), [
      "entail/direct",
      "entail/rag",
      "extract/d1",
      "support/rag",
    ]);
    await clearKeyPointJudgments(ws, "rag");
    assert.deepEqual(await problems(), ["entail/direct", "extract/d1"]);
    assert.equal(await ws.count("keypoint_labels"), 2);
    assert.deepEqual(
      (await readKeyPointStatements(ws, "j")).map((s) => s.runId),
      ["direct"],
    );
    await clearKeyPointStep(ws, "extract");
    assert.deepEqual(await keys(), []);
    assert.deepEqual(await problems(), ["entail/direct"]);
    await ws.insert("keypoints", [kp("k1", "merged", "a"), kp("k1", "merged", "b")]);
    await clearKeyPointSource(ws, "a");
    assert.deepEqual(await keys(), ["k1/merged/b"]);
  } finally {
    ws.close();
  }
});
