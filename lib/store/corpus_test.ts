import assert from "node:assert/strict";
import { openWorkspace, readPassagesById, readPassageTexts, replaceRunRows } from "./mod.ts";

Deno.test("passages by id with tokens; replaceRunRows deletes one run", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("passages", [
      { passageId: "d2#1", topicId: "t1", docId: "d2", text: "two", tokens: 3 },
      { passageId: "d1#1", topicId: "t1", docId: "d1", text: "one" },
    ]);
    assert.deepEqual(await readPassagesById(ws), [
      { id: "d1#1", topicId: "t1", text: "one", tokens: null },
      { id: "d2#1", topicId: "t1", text: "two", tokens: 3 },
    ]);
    assert.deepEqual([...await readPassageTexts(ws)].sort(), [["d1#1", "one"], ["d2#1", "two"]]);
    await ws.upsert("runs", [
      { run: "x", topicId: "t1", docId: "d1#1", rank: 1, score: 2 },
      { run: "x", topicId: "t1", docId: "d2#1", rank: 2, score: 1 },
      { run: "y", topicId: "t1", docId: "d1#1", rank: 1, score: 1 },
    ]);
    assert.equal(
      await replaceRunRows(ws, "x", [{
        run: "x",
        topicId: "t1",
        docId: "d2#1",
        rank: 1,
        score: 5,
      }]),
      2,
    );
    assert.deepEqual(await ws.query(`SELECT run, doc_id, rank FROM runs ORDER BY run`), [
      { run: "x", docId: "d2#1", rank: 1 },
      { run: "y", docId: "d1#1", rank: 1 },
    ]);
    // An empty list leaves the run without rows.
    assert.equal(await replaceRunRows(ws, "x", []), 1);
    assert.deepEqual(await ws.query(`SELECT run FROM runs`), [{ run: "y" }]);
  } finally {
    ws.close();
  }
});
