import assert from "node:assert/strict";
import {
  measureRow,
  openWorkspace,
  readJudgeVarianceRows,
  readMeasureJudgeSources,
  readMethodMeasures,
} from "./mod.ts";

const row = (
  run: string,
  topicId: string,
  measure: string,
  judge: string,
  source: string,
  value: number | null,
  method = "nuggets",
) => measureRow({ run, topicId, measure, method, judge, source, value });

Deno.test("readMeasureJudgeSources: most rows first, filters, per-topic counting; readMethodMeasures", async () => {
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
    assert.deepEqual(await readMeasureJudgeSources(ws, "nuggets"), [
      { judge: "j2", source: "s1", n: 5 },
      { judge: "j1", source: "s1", n: 4 },
    ]);
    // Per-topic strict_vital rows only: j1 has 3, j2 has 2.
    assert.deepEqual(
      await readMeasureJudgeSources(ws, "nuggets", { perTopicMeasure: "strict_vital" }),
      [{ judge: "j1", source: "s1", n: 3 }, { judge: "j2", source: "s1", n: 2 }],
    );
    assert.deepEqual(
      await readMeasureJudgeSources(ws, "nuggets", {
        judge: "j2",
        perTopicMeasure: "strict_vital",
      }),
      [{ judge: "j2", source: "s1", n: 2 }],
    );
    assert.deepEqual(await readMeasureJudgeSources(ws, "nuggets", { source: "other" }), []);
    assert.deepEqual(await readMeasureJudgeSources(ws, "keypoints"), [
      { judge: "j1", source: "s1", n: 1 },
    ]);
    assert.deepEqual(
      await readMethodMeasures(ws, "nuggets", "j1", "s1", { meansOnly: true }),
      [{ run: "a", topicId: "all", measure: "strict_vital", value: 0.375, topics: null }],
    );
    const all = await readMethodMeasures(ws, "nuggets", "j1", "s1");
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

Deno.test("readJudgeVarianceRows: the judge-variance rows by run and measure, nulls kept", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    assert.deepEqual(await readJudgeVarianceRows(ws), []);
    const jv = (run: string, measure: string, value: number | null) =>
      row(run, "all", measure, "gpt", "3 samples", value, "judge-variance");
    await ws.upsert("measures", [
      jv("b", "covY_sd", 0.1),
      jv("", "samples", 3),
      jv("a", "covY_mean", null),
      row("a", "all", "KPR", "gpt", "", 1, "keypoints"),
    ]);
    assert.deepEqual(await readJudgeVarianceRows(ws), [
      { run: "", measure: "samples", value: 3, judge: "gpt", source: "3 samples" },
      { run: "a", measure: "covY_mean", value: null, judge: "gpt", source: "3 samples" },
      { run: "b", measure: "covY_sd", value: 0.1, judge: "gpt", source: "3 samples" },
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
