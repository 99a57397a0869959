import assert from "node:assert/strict";
import { openWorkspace } from "@lib/store/mod.ts";
import { rerankRun } from "./rerank_run.ts";

Deno.test({
  name: "rerankRun: MMR over TF-IDF pushes a duplicate below a novel passage; re-runs skip",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const ws = await openWorkspace(dir);
    try {
      await ws.upsert("passages", [
        { passageId: "t:0#0", topicId: "t", docId: "t:0", text: "storm floods the coast" },
        { passageId: "t:0#1", topicId: "t", docId: "t:0", text: "storm floods the coast" },
        { passageId: "t:1#2", topicId: "t", docId: "t:1", text: "mayor wins the vote" },
      ]);
      await ws.insert("runs", [
        { run: "bm25", topicId: "t", docId: "t:0#0", rank: 1, score: 3 },
        { run: "bm25", topicId: "t", docId: "t:0#1", rank: 2, score: 2 },
        { run: "bm25", topicId: "t", docId: "t:1#2", rank: 3, score: 1 },
      ]);
      // Relevance 1, 0.5, 0 after min-max. Step 2: the duplicate scores 0.5*0.5 - 0.5*1 = -0.25,
      // the novel passage 0.5*0 - 0.5*0 = 0, so it comes second.
      const s = await rerankRun(ws, { name: "mmr", from: "bm25", method: "mmr", lambda: 0.5 });
      assert.deepEqual(s, { run: "mmr", written: 3, skipped: false });
      const rows = await ws.runRows("mmr");
      assert.deepEqual(rows.map((r) => [r.docId, r.rank, r.score]), [["t:0#0", 1, 3], [
        "t:1#2",
        2,
        2,
      ], ["t:0#1", 3, 1]]);
      // lambda 1 keeps the first-stage order.
      await rerankRun(ws, { name: "rel", from: "bm25", method: "mmr", lambda: 1 });
      assert.deepEqual((await ws.runRows("rel")).map((r) => r.docId), ["t:0#0", "t:0#1", "t:1#2"]);
      assert.deepEqual(await rerankRun(ws, { name: "mmr", from: "bm25", method: "mmr" }), {
        run: "mmr",
        written: 0,
        skipped: true,
      });
      await assert.rejects(
        () => rerankRun(ws, { name: "x", from: "dense", method: "mmr" }),
        /Cannot rerank run "dense" into "x": the workspace has no run "dense"; retrieve it first/,
      );
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
