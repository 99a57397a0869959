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

Deno.test("openWorkspace caps DuckDB's memory: default, CRUX_MEMORY_LIMIT, option, bad value", async () => {
  const dir = await Deno.makeTempDir();
  const limit = async (opts: { memoryLimit?: string } = {}) => {
    const ws = await openWorkspace(dir, opts);
    try {
      const reader = await ws.connection.runAndReadAll(
        "SELECT current_setting('memory_limit')",
      );
      return String(reader.getRowsJS()[0][0]);
    } finally {
      ws.close();
    }
  };
  const before = Deno.env.get("CRUX_MEMORY_LIMIT");
  try {
    Deno.env.delete("CRUX_MEMORY_LIMIT");
    // 2 GB = 2e9 bytes, which DuckDB prints in binary units.
    assert.equal(await limit(), "1.8 GiB");
    assert.equal(await limit({ memoryLimit: "512MiB" }), "512.0 MiB");
    Deno.env.set("CRUX_MEMORY_LIMIT", "3GB");
    assert.equal(await limit(), "2.7 GiB");
    // The option wins over the environment.
    assert.equal(await limit({ memoryLimit: "1GiB" }), "1.0 GiB");
    Deno.env.set("CRUX_MEMORY_LIMIT", "3");
    await assert.rejects(() => limit(), /"3" \(from CRUX_MEMORY_LIMIT\) is not a size/);
    Deno.env.delete("CRUX_MEMORY_LIMIT");
    await assert.rejects(
      () => limit({ memoryLimit: "lots" }),
      /"lots" \(from the memoryLimit option\) is not a size/,
    );
  } finally {
    if (before === undefined) Deno.env.delete("CRUX_MEMORY_LIMIT");
    else Deno.env.set("CRUX_MEMORY_LIMIT", before);
    await Deno.remove(dir, { recursive: true });
  }
});
