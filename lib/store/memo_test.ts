import assert from "node:assert/strict";
import { openWorkspace } from "./open_workspace.ts";
import {
  clearMemo,
  readMemo,
  readStageRuns,
  recordStageRun,
  withWorkspaceMemo,
  writeMemo,
} from "./memo.ts";
import { readStageParams } from "./run_names.ts";
import { readStageRecords } from "./explorer_reads.ts";

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
    assert.equal(await readStageParams(ws, "never"), undefined);
    const records = await readStageRecords(ws);
    assert.deepEqual(
      records.map((r) => [r.id, r.stage, r.summary, r.params]).sort(),
      [["retrieve:bm25", "retrieve", "12 rows", '{"k1":1.2}'], ["select", "select", "ok", "{}"]],
    );
    const select = (await readMemo(ws, "stage")).get("select")!;
    assert.ok(Math.abs(select.recordedAt.getTime() - Date.now()) < 24 * 3600e3);
    // Stage records are one kind of the memo: other kinds do not see them.
    assert.equal((await readMemo(ws, "measure")).size, 0);
  } finally {
    ws.close();
  }
});

Deno.test("memo: a write without fingerprint keeps the recorded one and its time; filters by key and prefix", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const t1 = new Date("2026-01-02T03:04:05Z");
    await writeMemo(ws, {
      kind: "measure",
      key: '["bm25","h"]',
      fingerprint: "f1",
      recordedAt: t1,
      payload: { n: 1 },
    });
    await writeMemo(ws, { kind: "measure", key: '["bm25","h"]', payload: { n: 2 } });
    await writeMemo(ws, { kind: "measure", key: '["bm25","g"]', fingerprint: "f3", payload: {} });
    await writeMemo(ws, { kind: "measure", key: '["bm25-rm3","h"]', fingerprint: "f4" });
    await writeMemo(ws, { kind: "file", key: '["bm25","h"]', fingerprint: "id", payload: "x" });
    const h = (await readMemo<{ n: number }>(ws, "measure", { key: '["bm25","h"]' }))
      .get('["bm25","h"]')!;
    assert.deepEqual([h.fingerprint, h.payload, h.recordedAt.getTime()], [
      "f1",
      { n: 2 },
      t1.getTime(),
    ]);
    assert.deepEqual([...(await readMemo(ws, "measure", { keyPrefix: '["bm25",' })).keys()], [
      '["bm25","g"]',
      '["bm25","h"]',
    ]);
    assert.equal((await readMemo(ws, "measure")).get('["bm25-rm3","h"]')?.payload, undefined);
    // A new fingerprint replaces the old one and its time.
    await writeMemo(ws, { kind: "measure", key: '["bm25","h"]', fingerprint: "f5", payload: 1 });
    const h2 = (await readMemo(ws, "measure")).get('["bm25","h"]')!;
    assert.equal(h2.fingerprint, "f5");
    assert.notEqual(h2.recordedAt.getTime(), t1.getTime());
    assert.equal(await clearMemo(ws, "measure", { keyPrefix: '["bm25",' }), 2);
    assert.deepEqual([...(await readMemo(ws, "measure")).keys()], ['["bm25-rm3","h"]']);
    // Another kind under the same key stays.
    assert.equal((await readMemo(ws, "file")).get('["bm25","h"]')?.payload, "x");
    assert.equal(await clearMemo(ws, "measure", { key: '["bm25-rm3","h"]' }), 1);
    assert.equal((await readMemo(ws, "measure")).size, 0);
  } finally {
    ws.close();
  }
});

Deno.test("withWorkspaceMemo: nothing without a workspace; a closed workspace is opened for the call", async () => {
  const dir = await Deno.makeTempDir();
  assert.equal(await withWorkspaceMemo(dir, false, () => Promise.resolve(1)), undefined);
  (await openWorkspace(dir)).close();
  await withWorkspaceMemo(
    dir,
    true,
    (ws) => writeMemo(ws, { kind: "file", key: "k", fingerprint: "i" }),
  );
  assert.equal(
    await withWorkspaceMemo(
      dir,
      false,
      async (ws) => (await readMemo(ws, "file")).get("k")?.fingerprint,
    ),
    "i",
  );
  // Read-only open in this process: a write is not attempted.
  const ro = await openWorkspace(dir, { readOnly: true });
  try {
    assert.equal(await withWorkspaceMemo(dir, true, () => Promise.resolve(2)), undefined);
    assert.equal(await withWorkspaceMemo(dir, false, () => Promise.resolve(3)), 3);
  } finally {
    ro.close();
  }
});

Deno.test("a fresh workspace has one memo table: no stage_runs, no measure_inputs", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const tables = await ws.query<{ name: string }>(
      `SELECT table_name AS name FROM duckdb_tables() WHERE database_name = current_database()
       AND (table_name LIKE '%memo%' OR table_name IN ('stage_runs', 'measure_inputs'))`,
    );
    assert.deepEqual(tables.map((t) => t.name), ["memo"]);
  } finally {
    ws.close();
  }
});
