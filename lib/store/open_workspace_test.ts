import assert from "node:assert/strict";
import { join } from "node:path";
import { openWorkspace } from "./open_workspace.ts";
import { SCHEMA_VERSION } from "./schema.ts";

Deno.test("openWorkspace creates the folder, the tables and records the schema version", async () => {
  const dir = join(await Deno.makeTempDir(), "exp");
  const ws = await openWorkspace(dir);
  try {
    assert.ok((await Deno.stat(join(dir, "workspace.duckdb"))).isFile);
    const [meta] = await ws.query<{ value: string }>(
      "SELECT value FROM meta WHERE key = 'schema_version'",
    );
    assert.equal(meta.value, String(SCHEMA_VERSION));
    assert.equal(await ws.count("passages"), 0);
  } finally {
    ws.close();
  }
});

Deno.test("openWorkspace refuses a workspace with a newer schema version", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  await ws.exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  ws.close();
  await assert.rejects(
    () => openWorkspace(dir),
    new RegExp(`schema version 99 is newer than this workbench's ${SCHEMA_VERSION}`),
  );
  await assert.rejects(() => openWorkspace(dir, { readOnly: true }), /schema version 99/);
});

Deno.test("openWorkspace read-only needs an existing workspace and refuses writes", async () => {
  const dir = await Deno.makeTempDir();
  await assert.rejects(
    () => openWorkspace(join(dir, "none"), { readOnly: true }),
    /has no workspace.duckdb/,
  );
  const ws = await openWorkspace(dir);
  await ws.insert("topics", [{ topicId: "t1", request: "r" }]);
  ws.close();
  const ro = await openWorkspace(dir, { readOnly: true });
  try {
    assert.deepEqual(await ro.topics(), [{ topicId: "t1", request: "r" }]);
    await assert.rejects(() => ro.insert("topics", [{ topicId: "t2", request: "r" }]));
  } finally {
    ro.close();
  }
});
