import assert from "node:assert/strict";
import { openWorkspace } from "./open_workspace.ts";
import { readStageRuns, recordStageRun } from "./stage_runs.ts";
import { readStageParams } from "./run_names.ts";

Deno.test("stage runs: recorded with parsed params, replaced by id, read back by id", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    assert.equal((await readStageRuns(ws)).size, 0);
    await recordStageRun(ws, {
      id: "retrieve:bm25",
      stage: "retrieve",
      fingerprint: "f1",
      params: '{"k1":0.9}',
      summary: "10 rows",
    });
    await recordStageRun(ws, {
      id: "retrieve:bm25",
      stage: "retrieve",
      fingerprint: "incomplete:f2",
      params: '{"k1":1.2}',
      summary: "12 rows",
    });
    await recordStageRun(ws, {
      id: "select",
      stage: "select",
      fingerprint: "f3",
      params: "{}",
      summary: "ok",
    });
    const runs = await readStageRuns(ws);
    assert.deepEqual([...runs.keys()].sort(), ["retrieve:bm25", "select"]);
    assert.deepEqual(runs.get("retrieve:bm25"), {
      id: "retrieve:bm25",
      fingerprint: "incomplete:f2",
      params: { k1: 1.2 },
      summary: "12 rows",
    });
    assert.deepEqual(await readStageParams(ws, "retrieve:bm25"), { k1: 1.2 });
    const [row] = await ws.query<{ stage: string; finishedAt: Date }>(
      "SELECT stage, finished_at FROM stage_runs WHERE id = 'select'",
    );
    assert.equal(row.stage, "select");
    assert.ok(Math.abs(row.finishedAt.getTime() - Date.now()) < 24 * 3600e3);
  } finally {
    ws.close();
  }
});
