import assert from "node:assert/strict";
import { countKeyPointProblems, openWorkspace, readKeyPointsOfSource } from "./mod.ts";

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
      (await countKeyPointProblems(ws)).sort((a, b) => a.topicId < b.topicId ? -1 : 1),
      [{ topicId: "t", n: 2 }, { topicId: "u", n: 1 }],
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
