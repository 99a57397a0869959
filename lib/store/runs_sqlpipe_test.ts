import assert from "node:assert/strict";
import { openWorkspace } from "./open_workspace.ts";
import { clearRunsEverywhere } from "./runs_sqlpipe.ts";

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
