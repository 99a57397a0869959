import assert from "node:assert/strict";
import { openWorkspace, readGeneratedAnswers } from "./mod.ts";

Deno.test("readGeneratedAnswers: the runs asked (all without a list), by run and topic", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("generations", [
      { run: "b", topicId: "t1", text: "B1", contextIds: ["p1", "p2"] },
      { run: "a", topicId: "t2", text: "A2", contextIds: null },
      { run: "a", topicId: "t1", text: "A1", contextIds: [] },
      { run: "c", topicId: "t1", text: "C1", contextIds: null },
    ]);
    assert.deepEqual(await readGeneratedAnswers(ws, ["b", "a"]), [
      { run: "a", topicId: "t1", text: "A1", contextIds: [] },
      { run: "a", topicId: "t2", text: "A2", contextIds: null },
      { run: "b", topicId: "t1", text: "B1", contextIds: ["p1", "p2"] },
    ]);
    assert.deepEqual((await readGeneratedAnswers(ws)).map((g) => g.run), ["a", "a", "b", "c"]);
    assert.deepEqual(await readGeneratedAnswers(ws, []), []);
  } finally {
    ws.close();
  }
});
