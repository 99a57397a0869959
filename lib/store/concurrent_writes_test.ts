/**
 * Writes that run at the same moment in one process: every upsert, insert and
 * transaction waits its turn on the database's one queue (forks included), none
 * shares a staging table with another, and a replace that fails halfway leaves the
 * rows it was replacing in place.
 */
import assert from "node:assert/strict";
import { openWorkspace } from "./open_workspace.ts";

Deno.test("200 concurrent upserts into one table: no error, the last write of each key wins", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  const fork = await ws.fork();
  try {
    // Write i stores keys k(i mod 7) and k((i + 3) mod 7) with value "v<i>", half of
    // them through a fork; the queue keeps the order of the calls, so key k holds
    // the value of the highest i that wrote it.
    const writes = Array.from({ length: 200 }, (_, i) =>
      (i % 2 ? fork : ws).upsert("meta", [
        { key: `k${i % 7}`, value: `v${i}` },
        { key: `k${(i + 3) % 7}`, value: `v${i}` },
      ]));
    const stored = await Promise.all(writes);
    assert.ok(stored.every((n) => n === 2));
    const expected = new Map<string, string>();
    for (let i = 0; i < 200; i++) {
      expected.set(`k${i % 7}`, `v${i}`);
      expected.set(`k${(i + 3) % 7}`, `v${i}`);
    }
    const rows = await ws.query<{ key: string; value: string }>(
      "SELECT key, value FROM meta WHERE key LIKE 'k%' ORDER BY key",
    );
    assert.deepEqual(
      rows.map((r) => [r.key, r.value]),
      [...expected].sort(([a], [b]) => a.localeCompare(b)),
    );
    // By hand: 199 mod 7 = 3, so k3 and k6 hold v199; k0 was last written by 196 (196 = 28 * 7).
    assert.equal(rows.find((r) => r.key === "k3")?.value, "v199");
    assert.equal(rows.find((r) => r.key === "k6")?.value, "v199");
    assert.equal(rows.find((r) => r.key === "k0")?.value, "v196");
  } finally {
    fork.close();
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("concurrent inserts, upserts, streams and transactions share one queue", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const labels = (from: number, to: number, label: string) =>
      Array.from({ length: to - from }, (_, i) => ({
        task: "answerability",
        annotator: `a${(from + i) % 3}`,
        itemId: `i${from + i}`,
        label,
      }));
    await Promise.all([
      ws.insert("topics", [{ topicId: "t1", request: "r1" }]),
      ws.upsert("annotation_labels", labels(0, 30, "0")),
      ws.upsertStream("annotation_labels", labels(30, 60, "1"), { batchSize: 7 }),
      // Called after the upsert, so run after it: i2 deleted, i0 and i1 replaced.
      ws.transaction(async () => {
        await ws.exec("DELETE FROM annotation_labels WHERE item_id = 'i2'");
        await ws.upsert("annotation_labels", labels(0, 2, "2"));
      }),
      ws.insert("topics", [{ topicId: "t2", request: "r2" }]),
    ]);
    const rows = await ws.query<{ itemId: string; label: string }>(
      "SELECT item_id, label FROM annotation_labels",
    );
    const byItem = new Map(rows.map((r) => [r.itemId, r.label]));
    // 30 + 30 items, less i2.
    assert.equal(rows.length, 59);
    assert.equal(byItem.get("i0"), "2");
    assert.equal(byItem.get("i1"), "2");
    assert.equal(byItem.has("i2"), false);
    for (let i = 3; i < 30; i++) assert.equal(byItem.get(`i${i}`), "0");
    for (let i = 30; i < 60; i++) assert.equal(byItem.get(`i${i}`), "1");
    assert.equal(await ws.count("topics"), 2);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a replace that fails after deleting the old rows keeps them: one commit", async () => {
  const dir = await Deno.makeTempDir();
  let ws = await openWorkspace(dir);
  await ws.exec("CREATE TABLE checked (k VARCHAR PRIMARY KEY, v INTEGER CHECK (v >= 0))");
  ws.close();
  ws = await openWorkspace(dir);
  try {
    await ws.upsert("checked", [{ k: "a", v: 1 }, { k: "b", v: 2 }]);
    // The staged rows pass (the staging table has no CHECK); the insert into the
    // table fails after the delete of a and b, and both must survive.
    await assert.rejects(
      ws.upsert("checked", [{ k: "a", v: 5 }, { k: "b", v: -1 }]),
      /CHECK|constraint/i,
    );
    assert.deepEqual(
      (await ws.query<{ k: string; v: number }>("SELECT k, v FROM checked ORDER BY k"))
        .map((r) => [r.k, r.v]),
      [["a", 1], ["b", 2]],
    );
    await assert.rejects(
      ws.upsertStream("checked", [{ k: "a", v: 7 }, { k: "b", v: -2 }], { batchSize: 1 }),
      /CHECK|constraint/i,
    );
    await assert.rejects(ws.insert("checked", [{ k: "c", v: 3 }, { k: "d", v: -3 }]));
    assert.deepEqual(
      (await ws.query<{ k: string; v: number }>("SELECT k, v FROM checked ORDER BY k"))
        .map((r) => [r.k, r.v]),
      [["a", 1], ["b", 2]],
    );
    // A failed write does not block the queue.
    assert.equal(await ws.upsert("checked", [{ k: "a", v: 9 }]), 1);
    assert.equal((await ws.query<{ v: number }>("SELECT v FROM checked WHERE k = 'a'"))[0].v, 9);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
