import assert from "node:assert/strict";
import { countRunRows, openWorkspace } from "./mod.ts";
import { clearRunsEverywhere } from "./runs.ts";

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

Deno.test("clearRunsEverywhere deletes the named runs from generations, runs and both info tables", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    for (const run of ["v1", "v2", "keep"]) {
      await ws.insert("generations", [{ run, topicId: "t1", text: "x" }]);
      await ws.insert("runs", [{ run, topicId: "t1", docId: "d", rank: 1, score: 1 }]);
      await ws.insert("generation_info", [{ run, condition: "rag" }]);
      await ws.insert("run_info", [{ run, kind: "bm25" }]);
    }
    await clearRunsEverywhere(ws, ["v1", "v2"]);
    for (const t of ["generations", "runs", "generation_info", "run_info"]) {
      assert.deepEqual(await ws.query(`SELECT run FROM ${t}`), [{ run: "keep" }], t);
    }
  } finally {
    ws.close();
  }
});
