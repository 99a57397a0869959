import assert from "node:assert/strict";
import { measureRow, openWorkspace } from "@lib/store/mod.ts";
import { cellTopicSets } from "./cell_topic_sets.ts";

const key = (run: string, topicId = "all") => ({
  run,
  source: "report",
  judge: "j",
  measure: "Cov",
  topicId,
});

Deno.test("cellTopicSets: keys and inputs carry their stored row's topic set, unknown keys stay as they are", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const row = (run: string, topicId: string, topicSet: string | null) =>
      measureRow({
        run,
        topicId,
        measure: "Cov",
        method: "crux",
        judge: "j",
        source: "report",
        value: 0.5,
        topics: topicId === "all" ? 9 : null,
        topicSet,
      });
    await ws.upsert("measures", [
      row("bm25", "all", "answerable(tau=3,n=9)"),
      row("bm25", "t1", "topic(id=t1)"),
      row("old", "all", null),
    ]);
    const fill = await cellTopicSets(ws);
    const a = fill({
      name: "t",
      data: 1,
      cells: [
        { row: "bm25", column: "cov", key: key("bm25") },
        { row: "old", column: "cov", key: key("old") },
        { row: "gone", column: "cov", key: key("gone") },
        { row: "d", column: "sd", derived: "sd", inputs: [key("bm25", "t1"), key("bm25")] },
        { row: "b", column: "cov", reason: "not stored" },
      ],
    });
    assert.deepEqual(a.cells, [
      { row: "bm25", column: "cov", key: { ...key("bm25"), topicSet: "answerable(tau=3,n=9)" } },
      { row: "old", column: "cov", key: { ...key("old"), topicSet: null } },
      { row: "gone", column: "cov", key: key("gone") },
      {
        row: "d",
        column: "sd",
        derived: "sd",
        inputs: [
          { ...key("bm25", "t1"), topicSet: "topic(id=t1)" },
          { ...key("bm25"), topicSet: "answerable(tau=3,n=9)" },
        ],
      },
      { row: "b", column: "cov", reason: "not stored" },
    ]);
    assert.equal(a.data, 1);
    // An analysis without cells is returned as it is.
    const plain = { name: "p", data: null };
    assert.equal(fill(plain), plain);
  } finally {
    ws.close();
  }
});
