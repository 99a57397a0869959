import assert from "node:assert/strict";
import { countRunRows, openWorkspace } from "./mod.ts";

Deno.test("countRunRows counts one run's rows and 0 for a run not stored", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await ws.insert("runs", [
      { run: "bm25", topicId: "t", docId: "a", rank: 1, score: 2 },
      { run: "bm25", topicId: "t", docId: "b", rank: 2, score: 1 },
      { run: "dense", topicId: "t", docId: "a", rank: 1, score: 0.5 },
    ]);
    assert.equal(await countRunRows(ws, "bm25"), 2);
    assert.equal(await countRunRows(ws, "dense"), 1);
    assert.equal(await countRunRows(ws, "missing"), 0);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
