import assert from "node:assert/strict";
import { methodStages } from "@lib/methods/mod.ts";
import { join } from "node:path";
import { nuggetWorkspace } from "@lib/nuggets/testdata/nugget_workspace.ts";
import { type MethodStageContext, runStages } from "@lib/pipeline/mod.ts";
import { NUGGET_STAGES } from "./stages.ts";

const ORDER = ["judge", "measure"];
const ctx = (extra: Partial<MethodStageContext> = {}): MethodStageContext => ({
  backend: "offline",
  answerRuns: ["rag", "direct"],
  answerStages: [],
  dataStages: [],
  judgeStages: [],
  outDir: "out",
  configFile: "exp.json",
  ...extra,
});

Deno.test("nuggets section: parse checks fields and names the file", () => {
  assert.deepEqual(NUGGET_STAGES.parse({ window: 5, keep: 10 }, "/x/exp.json"), {
    window: 5,
    keep: 10,
  });
  assert.deepEqual(NUGGET_STAGES.parse(true, "exp.json"), {});
  assert.deepEqual(NUGGET_STAGES.parse({ nuggets: "n.jsonl" }, "/x/exp.json"), {
    nuggets: "/x/n.jsonl",
  });
  assert.throws(
    () => NUGGET_STAGES.parse({ window: 0 }, "exp.json"),
    /^TypeError: exp.json: nuggets.window: expected an integer >= 1, got 0$/,
  );
  assert.throws(
    () => NUGGET_STAGES.parse({ windw: 3 }, "exp.json"),
    /exp.json: nuggets.windw: unknown field/,
  );
  assert.throws(
    () => NUGGET_STAGES.parse({ support: 0.3, partial: 0.5 }, "exp.json"),
    /nuggets.partial: must not exceed support/,
  );
  assert.throws(
    () => NUGGET_STAGES.parse({ format: "questions" }, "exp.json"),
    /only applies with a nugget file/,
  );
});

Deno.test("nugget stages: run once, fresh on re-run, a changed parameter re-runs what depends on it", async () => {
  const { ws, dir } = await nuggetWorkspace();
  try {
    const specs = await methodStages("nuggets", NUGGET_STAGES.parse({}, "exp.json"), ctx());
    assert.deepEqual(specs.map((s) => s.id), [
      "judge:nuggets-create",
      "judge:nuggets-label",
      "judge:nuggets-assign:rag",
      "judge:nuggets-assign:direct",
      "measure:nuggets",
    ]);
    const first = await runStages(ws, specs, { order: ORDER });
    assert.equal(first.ran.length, 5);
    const measures = await ws.query<
      { run: string; measure: string; topics: number; judge: string; source: string }
    >(
      `SELECT run, measure, topics, judge, source FROM measures WHERE topic_id = 'all' AND method = 'nuggets'
       ORDER BY run, measure`,
    );
    assert.deepEqual(
      measures.map((m) => `${m.run} ${m.measure} ${m.topics} ${m.judge} ${m.source}`),
      [
        // The nugget counts: every run's (run '', judge ''), totals over the 2 topics.
        " nugget_created 2  created:offline",
        " nugget_importance_failed 2  created:offline",
        " nugget_kept 2  created:offline",
        " nugget_okay 2  created:offline",
        " nugget_passages 2  created:offline",
        " nugget_vital 2  created:offline",
        " nugget_windows 2  created:offline",
        " nugget_windows_failed 2  created:offline",
        "direct all 2 lexical-nuggets created:offline",
        "direct nugget_labels_failed 2 lexical-nuggets created:offline",
        "direct strict_all 2 lexical-nuggets created:offline",
        "direct strict_vital 2 lexical-nuggets created:offline",
        "direct vital 2 lexical-nuggets created:offline",
        "rag all 2 lexical-nuggets created:offline",
        "rag nugget_labels_failed 2 lexical-nuggets created:offline",
        "rag strict_all 2 lexical-nuggets created:offline",
        "rag strict_vital 2 lexical-nuggets created:offline",
        "rag vital 2 lexical-nuggets created:offline",
      ],
    );
    const again = await runStages(ws, specs, { order: ORDER });
    assert.deepEqual(again.ran, []);
    // A workspace measured by version 1 (no count rows): only the measure stage re-runs,
    // from the stored nuggets and labels, and stores the counts.
    const v1 = specs.map((s) => s.id === "measure:nuggets" ? { ...s, version: 1 } : s);
    await runStages(ws, v1, { order: ORDER, from: "measure" });
    await ws.exec(`DELETE FROM measures WHERE measure LIKE 'nugget_%'`);
    const upgraded = await runStages(ws, specs, { order: ORDER });
    assert.deepEqual(upgraded.ran, ["measure:nuggets"]);
    const counted = await ws.query<{ n: number }>(
      `SELECT count(*)::INT n FROM measures WHERE measure LIKE 'nugget_%' AND topic_id = 'all'`,
    );
    assert.deepEqual(counted, [{ n: 10 }]);
    const keep = await methodStages("nuggets", NUGGET_STAGES.parse({ keep: 5 }, "exp.json"), ctx());
    const third = await runStages(ws, keep, { order: ORDER });
    assert.deepEqual(third.fresh, ["judge:nuggets-create"]);
    assert.equal(third.ran.length, 4);
    const kept = await ws.query<{ t: string; n: number }>(
      `SELECT topic_id AS t, count(*)::INT n FROM nuggets WHERE kept GROUP BY ALL ORDER BY t`,
    );
    assert.deepEqual(kept, [{ t: "t1", n: 5 }, { t: "t2", n: 3 }]);
    // The measure stage re-ran after the labels: the stored kept counts are the new ones.
    const keptRows = await ws.query<{ t: string; v: number }>(
      `SELECT topic_id AS t, value AS v FROM measures WHERE measure = 'nugget_kept' ORDER BY t`,
    );
    assert.deepEqual(keptRows.map((r) => [r.t, Number(r.v)]), [["all", 8], ["t1", 5], ["t2", 3]]);
    const labels = await ws.query<{ n: number }>(
      `SELECT count(*)::INT n FROM nugget_assignments WHERE run = 'rag'`,
    );
    assert.deepEqual(labels, [{ n: 8 }]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("nugget stages: TREC RAG answers and a nugget file from the config", async () => {
  const { ws, dir } = await nuggetWorkspace();
  try {
    const answers = join(dir, "answers.jsonl");
    await Deno.writeTextFile(
      answers,
      JSON.stringify({
        run_id: "trec-r1",
        topic_id: "t2",
        topic: "Why do volcanoes erupt?",
        references: [],
        answer: [{ text: "Gas pressure builds up under a volcano.", citations: [] }],
      }) + "\n",
    );
    const nuggets = join(dir, "nuggets.jsonl");
    await Deno.writeTextFile(
      nuggets,
      JSON.stringify({
        qid: "t2",
        query: "Why do volcanoes erupt?",
        nuggets: [{ text: "gas pressure builds up", importance: "vital" }, {
          text: "magma rises",
          importance: "okay",
        }],
      }) + "\n",
    );
    const section = NUGGET_STAGES.parse(
      { nuggets: "nuggets.jsonl", answers: ["answers.jsonl"] },
      join(dir, "exp.json"),
    );
    const specs = await methodStages("nuggets", section, ctx({ answerRuns: ["rag"] }));
    assert.deepEqual(specs.map((s) => s.id), [
      "judge:nuggets-answers",
      "judge:nuggets-create",
      "judge:nuggets-label",
      "judge:nuggets-assign:rag",
      "judge:nuggets-assign:trec-r1",
      "measure:nuggets",
    ]);
    await runStages(ws, specs, { order: ORDER });
    const rows = await ws.query<{ run: string; topicId: string; measure: string; value: number }>(
      `SELECT run, topic_id, measure, value FROM measures
       WHERE source = 'file:nuggets.jsonl' AND measure IN ('strict_vital', 'all') ORDER BY run, topic_id, measure`,
    );
    // rag's t2 answer: "Magma rises because it is less dense. Gas pressure builds up." -> both supported.
    assert.deepEqual(rows.map((r) => [r.run, r.topicId, r.measure, r.value]), [
      ["rag", "all", "all", 1],
      ["rag", "all", "strict_vital", 1],
      ["rag", "t2", "all", 1],
      ["rag", "t2", "strict_vital", 1],
      ["trec-r1", "all", "all", 0.5],
      ["trec-r1", "all", "strict_vital", 1],
      ["trec-r1", "t2", "all", 0.5],
      ["trec-r1", "t2", "strict_vital", 1],
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
