import assert from "node:assert/strict";
import { openWorkspace } from "@lib/store/mod.ts";
import { scoreNuggets } from "./score_nuggets.ts";

Deno.test("scoreNuggets: hand-checked answers into the measure table", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const nugget = (topicId: string, ordinal: number, importance: string) => ({
      topicId,
      origin: "file:n.jsonl",
      ordinal,
      text: `n${ordinal}`,
      importance,
      kept: true,
    });
    await ws.upsert("nuggets", [
      nugget("q1", 1, "vital"),
      nugget("q1", 2, "vital"),
      nugget("q1", 3, "okay"),
      nugget("q2", 1, "okay"),
      nugget("q2", 2, "failed"),
    ]);
    const label = (run: string, topicId: string, ordinal: number, label: string) => ({
      run,
      topicId,
      origin: "file:n.jsonl",
      ordinal,
      judge: "j",
      label,
    });
    await ws.upsert("nugget_assignments", [
      // the METRICS.md reference: 0.5, 0.75, 1/3, 0.5
      label("r", "q1", 1, "support"),
      label("r", "q1", 2, "partial_support"),
      label("r", "q1", 3, "not_support"),
      // no vital nugget (the failed importance counts okay): vital scores 0; failed label = not_support
      label("r", "q2", 1, "support"),
      label("r", "q2", 2, "failed"),
    ]);
    const [r] = await scoreNuggets(ws, { origin: "file:n.jsonl", judge: "j" });
    assert.deepEqual(r.perAnswer.map((a) => [a.topicId, a.strictVital, a.vital, a.all]), [
      ["q1", 0.5, 0.75, 0.5],
      ["q2", 0, 0, 0.5],
    ]);
    assert.ok(Math.abs(r.perAnswer[0].strictAll - 1 / 3) < 1e-12);
    assert.deepEqual([r.failedLabels, r.failedImportance], [1, 1]);
    assert.deepEqual(r.perAnswer.map((a) => a.failedLabels), [0, 1]);
    const stored = await ws.query<Record<string, unknown>>(
      `SELECT run, topic_id, measure, name, cutoff, method, judge, source, value, topics
       FROM measures WHERE topic_id = 'all' ORDER BY measure`,
    );
    assert.deepEqual(stored.map((m) => [m.measure, m.value, m.topics]), [
      ["all", 0.5, 2],
      // The run's failed labels: q2's one, over its 2 answers.
      ["nugget_labels_failed", 1, 2],
      ["strict_all", (1 / 3 + 0.5) / 2, 2],
      ["strict_vital", 0.25, 2],
      ["vital", 0.375, 2],
    ]);
    assert.deepEqual(
      { ...stored[0], measure: undefined, value: undefined, topics: undefined },
      {
        run: "r",
        topicId: "all",
        measure: undefined,
        name: "all",
        cutoff: "",
        method: "nuggets",
        judge: "j",
        source: "file:n.jsonl",
        value: undefined,
        topics: undefined,
      },
    );
    const perTopic = await ws.query(`SELECT count(*)::INT n FROM measures WHERE topic_id <> 'all'`);
    // 4 scores and the failed label count of each of the 2 answers.
    assert.deepEqual(perTopic, [{ n: 10 }]);
    const failed = await ws.query<{ t: string; v: number; s: string }>(
      `SELECT topic_id AS t, value AS v, topic_set AS s FROM measures
       WHERE measure = 'nugget_labels_failed' ORDER BY t`,
    );
    assert.deepEqual(failed.map((f) => [f.t, Number(f.v), f.s]), [
      ["all", 1, "judged(n=2)"],
      ["q1", 0, "topic(id=q1)"],
      ["q2", 1, "topic(id=q2)"],
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
