import assert from "node:assert/strict";
import { openWorkspace } from "./open_workspace.ts";
import { measureRow } from "./measure_row.ts";
import type { Workspace } from "./workspace.ts";
import {
  ANSWER_ROWS,
  deleteMeasures,
  judgeSourceCounts,
  MEASURE_STEP_ROWS,
  readMeasureInputFingerprints,
  readMeasures,
} from "./measures.ts";
import { writeMeasures } from "./mod.ts";

type Row = Parameters<typeof measureRow>[0];

async function withRows(rows: Row[], fn: (ws: Workspace) => Promise<void>): Promise<void> {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("measures", rows.map((r) => measureRow(r)));
    await fn(ws);
  } finally {
    ws.close();
  }
}

/** The remaining rows as `run/topic/measure/method/judge/source`, sorted. */
async function left(ws: Workspace): Promise<string[]> {
  return (await ws.measures()).map((r) =>
    [r.run, r.topicId, r.measure, r.method, r.judge, r.source].join("/")
  ).sort();
}

const step: Row[] = [
  {
    run: "bm25",
    topicId: "t1",
    measure: "P@10",
    method: "trec",
    judge: "h",
    source: "selection",
    value: 0.5,
  },
  {
    run: "bm25",
    topicId: "all",
    measure: "P@10",
    method: "trec",
    judge: "h",
    source: "selection",
    value: 0.5,
    topics: 1,
  },
  {
    run: "bm25",
    topicId: "all",
    measure: "Cov@10",
    method: "crux",
    judge: "h",
    source: "selection",
    value: 0.4,
    topics: 1,
  },
  {
    run: "bm25",
    topicId: "all",
    measure: "Cov@10",
    method: "crux",
    judge: "h",
    source: "judgments",
    value: 0.3,
    topics: 1,
  },
  {
    run: "bm25",
    topicId: "all",
    measure: "Cov@10",
    method: "crux",
    judge: "g",
    source: "selection",
    value: 0.2,
    topics: 1,
  },
  {
    run: "bm25",
    topicId: "all",
    measure: "Cov",
    method: "crux",
    judge: "h",
    source: "report",
    value: 0.9,
  },
  {
    run: "bm25",
    topicId: "all",
    measure: "KPR",
    method: "keypoints",
    judge: "h",
    source: "merged",
    value: 0.7,
  },
  {
    run: "dense",
    topicId: "all",
    measure: "P@10",
    method: "trec",
    judge: "h",
    source: "selection",
    value: 0.6,
  },
];

Deno.test("deleteMeasures with the measure step's rows: a run's step rows go, report rows, other methods and runs stay", async () => {
  await withRows(step, async (ws) => {
    assert.equal(await deleteMeasures(ws, { ...MEASURE_STEP_ROWS, run: "bm25" }), 5);
    assert.deepEqual(await left(ws), [
      "bm25/all/Cov/crux/h/report",
      "bm25/all/KPR/keypoints/h/merged",
      "dense/all/P@10/trec/h/selection",
    ]);
  });
});

Deno.test("deleteMeasures: judge, topic, source and measure narrow what goes", async () => {
  await withRows(step, async (ws) => {
    await deleteMeasures(ws, { ...MEASURE_STEP_ROWS, run: "bm25", judge: "h", topicId: "all" });
    assert.deepEqual((await left(ws)).filter((r) => r.startsWith("bm25/") && r.includes("/h/")), [
      "bm25/all/Cov/crux/h/report",
      "bm25/all/KPR/keypoints/h/merged",
      "bm25/t1/P@10/trec/h/selection",
    ]);
    assert.ok((await left(ws)).includes("bm25/all/Cov@10/crux/g/selection"));
  });
  await withRows(step, async (ws) => {
    await deleteMeasures(ws, {
      ...MEASURE_STEP_ROWS,
      run: "bm25",
      judge: "h",
      source: "selection",
      measure: ["Cov@10", "nDCG@10"],
    });
    const rest = await left(ws);
    assert.equal(rest.length, step.length - 1);
    assert.ok(!rest.includes("bm25/all/Cov@10/crux/h/selection"));
    assert.ok(rest.includes("bm25/all/Cov@10/crux/h/judgments"));
    // An empty list of measures deletes nothing.
    assert.equal(await deleteMeasures(ws, { run: "bm25", measure: [] }), 0);
    assert.equal((await left(ws)).length, step.length - 1);
  });
});

Deno.test("readMeasures with the measure step's rows: one run, judge and source label, no report rows", async () => {
  await withRows(step, async (ws) => {
    const rows = await readMeasures(ws, {
      ...MEASURE_STEP_ROWS,
      run: "bm25",
      judge: "h",
      source: "selection",
    });
    assert.deepEqual(
      rows.map((r) => `${r.topicId} ${r.measure} ${r.value} ${r.topics}`).sort(),
      ["all Cov@10 0.4 1", "all P@10 0.5 1", "t1 P@10 0.5 null"],
    );
  });
});

const methods: Row[] = [
  {
    run: "a",
    topicId: "t1",
    measure: "strict_vital",
    method: "nuggets",
    judge: "j1",
    source: "o1",
    value: 0.1,
  },
  {
    run: "a",
    topicId: "t1",
    measure: "strict_vital",
    method: "nuggets",
    judge: "j1",
    source: "o2",
    value: 0.2,
  },
  {
    run: "a",
    topicId: "t1",
    measure: "strict_vital",
    method: "nuggets",
    judge: "j2",
    source: "o1",
    value: 0.3,
  },
  {
    run: "a",
    topicId: "t1",
    measure: "KPR",
    method: "keypoints",
    judge: "j1",
    source: "o1",
    value: 0.4,
  },
];

Deno.test("deleteMeasures: all of a method, some sources, or some judge-source pairs", async () => {
  await withRows(methods, async (ws) => {
    await deleteMeasures(ws, {
      method: "nuggets",
      judgeSources: [{ judge: "j1", source: "o1" }, { judge: "j2", source: "o2" }],
    });
    assert.deepEqual(await left(ws), [
      "a/t1/KPR/keypoints/j1/o1",
      "a/t1/strict_vital/nuggets/j1/o2",
      "a/t1/strict_vital/nuggets/j2/o1",
    ]);
    await deleteMeasures(ws, { method: "nuggets", source: ["o2", "o2"] });
    assert.deepEqual(await left(ws), [
      "a/t1/KPR/keypoints/j1/o1",
      "a/t1/strict_vital/nuggets/j2/o1",
    ]);
    await deleteMeasures(ws, { method: "nuggets" });
    assert.deepEqual(await left(ws), ["a/t1/KPR/keypoints/j1/o1"]);
    // An empty filter is refused rather than emptying the table.
    await assert.rejects(() => deleteMeasures(ws, {}), /empty filter/);
    assert.deepEqual(await left(ws), ["a/t1/KPR/keypoints/j1/o1"]);
  });
});

Deno.test("deleteMeasures of the answer rows and of the judge-variance rows (sample judges) takes only those", async () => {
  const rows: Row[] = [
    {
      run: "rag",
      topicId: "all",
      measure: "Cov",
      method: "crux",
      judge: "j",
      source: "report",
      value: 0.5,
    },
    {
      run: "rag",
      topicId: "all",
      measure: "Cov",
      method: "crux",
      judge: "j",
      source: "context",
      value: 0.6,
    },
    {
      run: "rag",
      topicId: "all",
      measure: "Cov",
      method: "crux",
      judge: "j#s1",
      source: "report",
      value: 0.4,
    },
    {
      run: "rag",
      topicId: "all",
      measure: "Cov@10",
      method: "crux",
      judge: "j",
      source: "selection",
      value: 0.3,
    },
    {
      run: "direct",
      topicId: "all",
      measure: "Cov",
      method: "crux",
      judge: "j",
      source: "report",
      value: 0.2,
    },
    {
      run: "direct",
      topicId: "all",
      measure: "Cov",
      method: "crux",
      judge: "j#s2",
      source: "report",
      value: 0.1,
    },
    {
      run: "",
      topicId: "all",
      measure: "samples",
      method: "judge-variance",
      judge: "j",
      source: "report",
      value: 2,
    },
  ];
  await withRows(rows, async (ws) => {
    assert.equal(await deleteMeasures(ws, { method: "judge-variance" }), 1);
    assert.equal(
      await deleteMeasures(ws, { method: "crux", source: "report", sampleJudges: "only" }),
      2,
    );
    assert.deepEqual(await left(ws), [
      "direct/all/Cov/crux/j/report",
      "rag/all/Cov/crux/j/context",
      "rag/all/Cov/crux/j/report",
      "rag/all/Cov@10/crux/j/selection",
    ]);
    await deleteMeasures(ws, { ...ANSWER_ROWS, run: "rag" });
    assert.deepEqual(await left(ws), [
      "direct/all/Cov/crux/j/report",
      "rag/all/Cov@10/crux/j/selection",
    ]);
  });
});

Deno.test("readMeasures: names, sample judges, per-topic rows, values and order select exactly the documented rows", async () => {
  const rows: Row[] = [
    {
      run: "b",
      topicId: "all",
      measure: "Den",
      method: "crux",
      judge: "j#s2",
      source: "report",
      value: 0.2,
    },
    {
      run: "a",
      topicId: "all",
      measure: "Den",
      method: "crux",
      judge: "j#s1",
      source: "report",
      value: 0.1,
    },
    {
      run: "a",
      topicId: "all",
      measure: "Cov",
      method: "crux",
      judge: "j#s2",
      source: "report",
      value: 0.3,
    },
    {
      run: "a",
      topicId: "all",
      measure: "Cov",
      method: "crux",
      judge: "x",
      source: "report",
      value: 0.9,
    },
    {
      run: "a",
      topicId: "t1",
      measure: "Cov",
      method: "crux",
      judge: "j#s1",
      source: "report",
      value: 0.4,
    },
    {
      run: "b",
      topicId: "t2",
      measure: "KPR",
      method: "keypoints",
      judge: "k",
      source: "s",
      value: 0.5,
    },
    {
      run: "a",
      topicId: "t2",
      measure: "KPR",
      method: "keypoints",
      judge: "k",
      source: "s",
      value: 0.6,
    },
    {
      run: "a",
      topicId: "t1",
      measure: "KPR",
      method: "keypoints",
      judge: "k",
      source: "s",
      value: 0.7,
    },
    {
      run: "a",
      topicId: "all",
      measure: "KPR",
      method: "keypoints",
      judge: "k",
      source: "s",
      value: 0.6,
    },
    {
      run: "a",
      topicId: "t1",
      measure: "KPR",
      method: "keypoints",
      judge: "k#s1",
      source: "s",
      value: 0.1,
    },
    {
      run: "a",
      topicId: "t1",
      measure: "KPR",
      method: "keypoints",
      judge: "k",
      source: "r",
      value: 0.2,
    },
  ];
  await withRows(rows, async (ws) => {
    assert.deepEqual(
      (await readMeasures(ws, {
        method: "crux",
        source: "report",
        topicId: "all",
        name: ["Cov", "Den"],
        hasValue: true,
        judge: ["j#s1", "j#s2"],
      }, ["measure", "judge", "run"]))
        .map((r) => `${r.measure} ${r.judge} ${r.run} ${r.value}`),
      ["Cov j#s2 a 0.3", "Den j#s1 a 0.1", "Den j#s2 b 0.2"],
    );
    assert.deepEqual(await readMeasures(ws, { source: "report", judge: [] }), []);
    const perTopic = { method: "keypoints", measure: "KPR", perTopic: true } as const;
    assert.deepEqual(
      judgeSourceCounts(await readMeasures(ws, { ...perTopic, sampleJudges: "exclude" })),
      [{ judge: "k", source: "s", n: 3 }, { judge: "k", source: "r", n: 1 }],
    );
    assert.deepEqual(
      (await readMeasures(ws, { ...perTopic, sampleJudges: "only" })).map((r) => r.judge),
      ["k#s1"],
    );
    assert.deepEqual(
      (await readMeasures(ws, { method: "crux", measurePrefix: "De" })).map((r) => r.run),
      ["a", "b"],
    );
    assert.deepEqual(
      (await readMeasures(ws, { ...perTopic, judge: "k", source: "s" }))
        .map(({ run, topicId, value }) => ({ run, topicId, value })),
      [
        { run: "a", topicId: "t1", value: 0.7 },
        { run: "a", topicId: "t2", value: 0.6 },
        { run: "b", topicId: "t2", value: 0.5 },
      ],
    );
  });
});

Deno.test("readMeasureInputFingerprints: per run with rows; a run's rows, the version and the judge's ratings change it", async () => {
  await withRows([], async (ws) => {
    await ws.insert("runs", [
      { run: "a", topicId: "t1", docId: "p1", rank: 1, score: 2 },
      { run: "a", topicId: "t1", docId: "p2", rank: 2, score: 1 },
      { run: "b", topicId: "t1", docId: "p2", rank: 1, score: 3 },
    ]);
    const first = await readMeasureInputFingerprints(ws, ["a", "b", "none"], "h", "v1");
    assert.deepEqual([...first.keys()].sort(), ["a", "b"]);
    assert.match(first.get("a")!, /^[0-9a-f]{32}$/);
    assert.notEqual(first.get("a"), first.get("b"));
    assert.deepEqual(await readMeasureInputFingerprints(ws, ["a", "b"], "h", "v1"), first);
    assert.notEqual(
      (await readMeasureInputFingerprints(ws, ["a"], "h", "v2")).get("a"),
      first.get("a"),
    );
    await ws.insert("ratings", [{
      topicId: "t1",
      itemId: "p1",
      questionId: "q1",
      rating: 4,
      judge: "h",
    }]);
    await ws.insert("rated_items", [{
      itemId: "p1",
      judge: "h",
      topicId: "t1",
      itemKind: "passage",
    }]);
    const rated = await readMeasureInputFingerprints(ws, ["a"], "h", "v1");
    assert.notEqual(rated.get("a"), first.get("a"));
    // Another judge's ratings do not enter this judge's fingerprint.
    assert.equal(
      (await readMeasureInputFingerprints(ws, ["a"], "g", "v1")).get("a"),
      first.get("a"),
    );
    await ws.exec("DELETE FROM runs WHERE run = 'b' ");
    await ws.insert("runs", [{ run: "b", topicId: "t1", docId: "p2", rank: 1, score: 3.5 }]);
    assert.notEqual(
      (await readMeasureInputFingerprints(ws, ["b"], "g", "v1")).get("b"),
      first.get("b"),
    );
    assert.deepEqual(await readMeasureInputFingerprints(ws, [], "h", "v1"), new Map());
  });
});

const row = (
  run: string,
  topicId: string,
  measure: string,
  judge: string,
  source: string,
  value: number | null,
  method = "nuggets",
) => measureRow({ run, topicId, measure, method, judge, source, value });

Deno.test("judgeSourceCounts of readMeasures: most rows first, filters, per-topic counting; means only", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await ws.upsert("measures", [
      // j1/s1: three per-topic strict_vital rows; j2/s1: two, plus means and other measures.
      row("a", "t1", "strict_vital", "j1", "s1", 0.5),
      row("a", "t2", "strict_vital", "j1", "s1", 0.25),
      row("b", "t1", "strict_vital", "j1", "s1", 1),
      row("a", "t1", "strict_vital", "j2", "s1", 0),
      row("a", "t2", "strict_vital", "j2", "s1", 0),
      row("a", "all", "strict_vital", "j2", "s1", 0),
      row("a", "t1", "vital", "j2", "s1", 0),
      row("a", "t2", "vital", "j2", "s1", 0),
      row("a", "all", "strict_vital", "j1", "s1", 0.375),
      row("a", "t1", "KPR", "j1", "s1", 0.9, "keypoints"),
    ]);
    // All rows: j2 has 5, j1 has 4.
    const counts = async (f: Parameters<typeof readMeasures>[1]) =>
      judgeSourceCounts(await readMeasures(ws, f));
    assert.deepEqual(await counts({ method: "nuggets" }), [
      { judge: "j2", source: "s1", n: 5 },
      { judge: "j1", source: "s1", n: 4 },
    ]);
    // Per-topic strict_vital rows only: j1 has 3, j2 has 2.
    assert.deepEqual(
      await counts({ method: "nuggets", measure: "strict_vital", perTopic: true }),
      [{ judge: "j1", source: "s1", n: 3 }, { judge: "j2", source: "s1", n: 2 }],
    );
    assert.deepEqual(
      await counts({ method: "nuggets", judge: "j2", measure: "strict_vital", perTopic: true }),
      [{ judge: "j2", source: "s1", n: 2 }],
    );
    assert.deepEqual(await counts({ method: "nuggets", source: "other" }), []);
    assert.deepEqual(await counts({ method: "keypoints" }), [
      { judge: "j1", source: "s1", n: 1 },
    ]);
    assert.deepEqual(
      await readMeasures(ws, { method: "nuggets", judge: "j1", source: "s1", topicId: "all" }),
      [{
        run: "a",
        topicId: "all",
        measure: "strict_vital",
        name: "strict_vital",
        cutoff: "",
        method: "nuggets",
        judge: "j1",
        source: "s1",
        value: 0.375,
        topics: null,
        topicSet: null,
      }],
    );
    const all = await readMeasures(ws, { method: "nuggets", judge: "j1", source: "s1" });
    assert.deepEqual(all.map((r) => `${r.run}/${r.topicId}`).sort(), [
      "a/all",
      "a/t1",
      "a/t2",
      "b/t1",
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readMeasures of the judge-variance rows by run and measure, nulls kept unless asked", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const variance = async (hasValue?: true) =>
      (await readMeasures(ws, { method: "judge-variance", hasValue }, ["run", "measure"]))
        .map(({ run, measure, value, judge, source }) => ({ run, measure, value, judge, source }));
    assert.deepEqual(await variance(), []);
    const jv = (run: string, measure: string, value: number | null) =>
      row(run, "all", measure, "gpt", "3 samples", value, "judge-variance");
    await ws.upsert("measures", [
      jv("b", "covY_sd", 0.1),
      jv("", "samples", 3),
      jv("a", "covY_mean", null),
      row("a", "all", "KPR", "gpt", "", 1, "keypoints"),
    ]);
    assert.deepEqual(await variance(), [
      { run: "", measure: "samples", value: 3, judge: "gpt", source: "3 samples" },
      { run: "a", measure: "covY_mean", value: null, judge: "gpt", source: "3 samples" },
      { run: "b", measure: "covY_sd", value: 0.1, judge: "gpt", source: "3 samples" },
    ]);
    assert.deepEqual((await variance(true)).map((r) => r.measure), ["samples", "covY_sd"]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deleteMeasures: one method, judge and source, optionally some runs", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const row = (run: string, method: string, judge: string, source: string) =>
      measureRow({
        run,
        topicId: "all",
        measure: `${method}_m`,
        method,
        judge,
        source,
        value: 0.5,
      });
    await writeMeasures(ws, [
      row("a", "nuggets", "j", "o"),
      row("b", "nuggets", "j", "o"),
      row("a", "nuggets", "k", "o"),
      row("a", "nuggets", "j", "p"),
      row("a", "subq", "j", "o"),
    ]);
    const left = async () =>
      (await ws.query<{ k: string }>(
        `SELECT run || ' ' || method || ' ' || judge || ' ' || source AS k FROM measures ORDER BY k`,
      )).map((r) => r.k);
    assert.equal(
      await deleteMeasures(ws, {
        method: "nuggets",
        judgeSources: [{ judge: "j", source: "o" }],
        run: ["a"],
      }),
      1,
    );
    assert.deepEqual(await left(), [
      "a nuggets j p",
      "a nuggets k o",
      "a subq j o",
      "b nuggets j o",
    ]);
    assert.equal(
      await deleteMeasures(ws, { method: "subq", judgeSources: [{ judge: "j", source: "o" }] }),
      1,
    );
    // An empty run list deletes nothing.
    assert.equal(await deleteMeasures(ws, { method: "nuggets", run: [] }), 0);
    assert.deepEqual(await left(), ["a nuggets j p", "a nuggets k o", "b nuggets j o"]);
  } finally {
    ws.close();
  }
});
