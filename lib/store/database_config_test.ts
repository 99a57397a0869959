import assert from "node:assert/strict";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { openWorkspace } from "./open_workspace.ts";
import type { Workspace } from "./workspace.ts";
import { oldFormatCopy } from "../../tests/support/old_format_workspace.ts";
import { CALLS_ZSTD_KEY, callsNeedZstd, createLlmCacheTables } from "./llm_cache.ts";
import { migrateWorkspace, type RewriteProgress } from "./migrate_workspace.ts";
import { checkWorkspace } from "./check_workspace.ts";
import { isOlderStorage, STORAGE_VERSION, storageVersionOf } from "./database_config.ts";
import { SCHEMA_VERSION } from "./schema.ts";

/**
 * Runs `read` on a connection to a workspace file opened read-only without the
 * workbench, as database `w` (the current one).
 */
async function readFile<T>(dir: string, read: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  const db = await DuckDBInstance.create(":memory:");
  const c = await db.connect();
  try {
    await c.run(`ATTACH '${join(dir, "workspace.duckdb")}' AS w (READ_ONLY)`);
    await c.run("USE w");
    return await read(c);
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/** DuckDB's storage tag of a workspace file, read without the workbench. */
function fileSettings(dir: string): Promise<{ storage: string | null }> {
  return readFile(dir, async (c) => ({ storage: await storageVersionOf(c) }));
}

/** Every table of a workspace file: its row count and a hash over all its rows. */
function contents(dir: string): Promise<Map<string, string>> {
  return readFile(dir, async (c) => {
    const tables = (await c.runAndReadAll(
      "SELECT table_name FROM duckdb_tables() WHERE database_name = 'w' ORDER BY 1",
    )).getRowsJS().map((r) => String(r[0]));
    const out = new Map<string, string>();
    for (const t of tables) {
      const [n, h] = (await c.runAndReadAll(
        `SELECT count(*), coalesce(sum(hash(x)), 0)::VARCHAR FROM w."${t}" x`,
      )).getRowsJS()[0];
      out.set(t, `${n} rows, hash ${h}`);
    }
    const keys = (await c.runAndReadAll(
      `SELECT table_name, constraint_type, constraint_column_names::VARCHAR
       FROM duckdb_constraints() WHERE database_name = 'w' AND constraint_type = 'PRIMARY KEY'
       ORDER BY 1, 3`,
    )).getRowsJS();
    out.set("(primary keys)", JSON.stringify(keys));
    return out;
  });
}

/** Inserts `n` cached calls with distinct prompts and answers. */
async function insertCalls(ws: Workspace, n: number): Promise<void> {
  await ws.exec(
    `INSERT INTO llm_calls (key, model, endpoint, template, params, messages, response, usage,
       status, error, attempts, latency_ms, created_at)
     SELECT 'k' || i, 'm', 'chat', 't@1', '{}',
       '[{"role": "user", "content": "Is passage ' || i || ' about the flood in ' || (i % 7) ||
         '? Answer yes or no."}]',
       CASE WHEN i % 3 = 0 THEN 'yes, it names the river ' || i ELSE 'no ' || i END,
       '{}', 'ok', NULL, 1, 20.0, TIMESTAMP '2026-01-01' FROM range($1) t(i)`,
    [n],
  );
}

/** Compressions of the call cache's prompts and answers in a workspace file, as DuckDB stored them. */
function callCompressions(dir: string): Promise<string[]> {
  return readFile(dir, async (c) =>
    (await c.runAndReadAll(
      `SELECT DISTINCT compression FROM pragma_storage_info('llm_calls')
         WHERE column_name IN ('messages', 'response') AND segment_type <> 'VALIDITY'
         ORDER BY 1`,
    )).getRowsJS().map((r) => String(r[0])));
}

Deno.test("isOlderStorage compares DuckDB's storage tags with the workspace format", () => {
  assert.equal(STORAGE_VERSION, "v1.5.0");
  assert.equal(isOlderStorage("v0.10.2+"), true);
  assert.equal(isOlderStorage("v1.0.0+"), true);
  assert.equal(isOlderStorage("v1.4.9"), true);
  assert.equal(isOlderStorage("v1.5.0+"), false);
  assert.equal(isOlderStorage("v1.6.0+"), false);
  assert.equal(isOlderStorage("v2.0.0"), false);
  assert.equal(isOlderStorage(null), false);
  assert.equal(isOlderStorage("unknown"), false);
});

Deno.test("new workspace files use the workspace storage format and checkpoint threshold", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const [row] = await ws.query<{ value: string }>(
      "SELECT value FROM duckdb_settings() WHERE name = 'checkpoint_threshold'",
    );
    assert.equal(row.value, "256.0 MiB"); // DuckDB's default is 16 MiB
  } finally {
    ws.close();
  }
  assert.deepEqual(await fileSettings(dir), { storage: "v1.5.0+" });
});

Deno.test("migrate rewrites a file of an older storage format, keeping every row and key", async () => {
  // A current workspace with rows in several tables, cached calls among them.
  const source = await Deno.makeTempDir();
  const ws = await openWorkspace(source);
  await ws.insert("topics", [{ topicId: "t1", request: "what happened" }]);
  await ws.insert(
    "passages",
    Array.from({ length: 2_000 }, (_, i) => ({
      passageId: `t1:d${i}#0`,
      topicId: "t1",
      docId: `d${i}`,
      text: `passage ${i} `.repeat(20),
      tokens: 40,
    })),
  );
  await insertCalls(ws, 500);
  await ws.exec(`INSERT INTO llm_logprobs VALUES ('k3', '{"topK": 2, "tokens": null}')`);
  ws.close();
  // The same workspace written in the format DuckDB uses when not told otherwise.
  const { dir: old } = await oldFormatCopy(source);
  const before = await contents(old);
  assert.equal(before.get("passages"), (await contents(source)).get("passages"));
  assert.equal((await fileSettings(old)).storage, "v1.0.0+");
  // The check points at the rewrite; opening works as it is.
  const checked = await checkWorkspace(old);
  assert.deepEqual(checked.problems, []);
  assert.equal(checked.storageVersion, "v1.0.0+");
  assert.match(
    checked.notes.join("\n"),
    /older storage format v1\.0\.0\+.*crux workspace migrate/s,
  );
  (await openWorkspace(old)).close();

  // A rewrite left half-done by a kill is cleared first.
  await Deno.writeTextFile(join(old, "workspace.duckdb.upgrade"), "left by a killed migration");
  const events: RewriteProgress[] = [];
  const result = await migrateWorkspace(old, { onProgress: (p) => events.push(p), intervalMs: 1 });
  assert.deepEqual(result, {
    from: SCHEMA_VERSION,
    to: SCHEMA_VERSION,
    storage: { from: "v1.0.0+", to: "v1.5.0+", because: ["format"] },
  });
  assert.deepEqual(await callCompressions(old), ["ZSTD"]);
  // Progress: the rows of every table, then copied table by table, then the file written.
  const tables = [...before.keys()].filter((k) => k !== "(primary keys)");
  const rowsTotal = tables.reduce((n, t) => n + parseInt(before.get(t)!), 0);
  assert.ok(rowsTotal >= 2_000 + 500 + 1 + 1, `${rowsTotal} rows`);
  const shape = (p: RewriteProgress) => [p.phase, p.rowsRead, p.tables];
  assert.deepEqual(
    events.map((e) => [e.rowsTotal, e.tablesTotal]),
    events.map(() => [
      rowsTotal,
      tables.length,
    ]),
  );
  assert.deepEqual(shape(events[0]), ["start", 0, 0]);
  assert.deepEqual(events.slice(-2).map(shape), [
    ["finishing", rowsTotal, tables.length],
    ["done", rowsTotal, tables.length],
  ]);
  const copying = events.slice(1, -2);
  assert.ok(copying.length > 0, "progress while the tables are copied");
  for (const [i, e] of copying.entries()) {
    assert.equal(e.phase, "copying");
    const last = i ? copying[i - 1] : events[0];
    assert.ok(e.rowsRead >= last.rowsRead && e.rowsRead <= rowsTotal, `rows ${e.rowsRead}`);
    assert.ok(e.tables >= last.tables && e.tables < tables.length, `tables ${e.tables}`);
    assert.ok(e.elapsedMs >= last.elapsedMs);
  }
  assert.equal((await fileSettings(old)).storage, "v1.5.0+");
  assert.deepEqual(await contents(old), before);
  assert.equal(
    (await contents(old)).get("llm_calls"),
    "500 rows, hash " + before.get("llm_calls")!.split("hash ")[1],
  );
  const entries = [...Deno.readDirSync(old)].map((e) => e.name).sort();
  assert.deepEqual(entries, ["workspace.duckdb"]);
  // The keys still hold: a second row with a stored key is refused.
  const again = await openWorkspace(old);
  try {
    await assert.rejects(
      () => again.exec("INSERT INTO topics (topic_id, request) VALUES ('t1', 'duplicate')"),
      /[Dd]uplicate key|PRIMARY KEY/,
    );
  } finally {
    again.close();
  }
  // Already current: nothing to rewrite.
  assert.deepEqual(await migrateWorkspace(old), { from: SCHEMA_VERSION, to: SCHEMA_VERSION });
  assert.deepEqual((await checkWorkspace(old)).notes, []);
});

Deno.test("a new workspace stores the call cache's prompts and answers with ZSTD", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  await insertCalls(ws, 3_000);
  await ws.exec("CHECKPOINT");
  ws.close();
  assert.deepEqual(await callCompressions(dir), ["ZSTD"]);
  assert.deepEqual((await checkWorkspace(dir)).notes, []);
  // A cache on its own connection (as `CallCache.open` creates it) records it too.
  const db = await DuckDBInstance.create(":memory:");
  const c = await db.connect();
  try {
    await createLlmCacheTables(c);
    assert.equal(await callsNeedZstd(c), false);
    await c.run(`DELETE FROM meta WHERE key = '${CALLS_ZSTD_KEY}'`);
    assert.equal(await callsNeedZstd(c), true);
  } finally {
    c.closeSync();
    db.closeSync();
  }
});

Deno.test("migrate stores a call cache of the default string compression with ZSTD, keeping every row", async () => {
  // A workspace of the current format whose cache was created before it asked for ZSTD.
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  await ws.exec("DROP TABLE llm_calls");
  await ws.exec(
    `CREATE TABLE llm_calls (key VARCHAR PRIMARY KEY, model VARCHAR, endpoint VARCHAR,
       template VARCHAR, params JSON, messages JSON, response VARCHAR, usage JSON,
       status VARCHAR, error VARCHAR, attempts INTEGER, latency_ms DOUBLE,
       created_at TIMESTAMP)`,
  );
  await insertCalls(ws, 3_000);
  await ws.insert("topics", [{ topicId: "t1", request: "what happened" }]);
  // Such a workspace has no record of a cache created with ZSTD.
  await ws.exec(`DELETE FROM meta WHERE key = '${CALLS_ZSTD_KEY}'`);
  await ws.exec("CHECKPOINT");
  ws.close();
  const stored = await callCompressions(dir);
  assert.ok(stored.some((c) => c !== "ZSTD" && c !== "Constant"), stored.join(", "));
  const checked = await checkWorkspace(dir);
  assert.deepEqual(checked.problems, []);
  assert.match(
    checked.notes.join("\n"),
    /default string compression.*crux workspace migrate --workspace .* rewrites it with ZSTD/s,
  );
  const before = await contents(dir);
  assert.deepEqual(await migrateWorkspace(dir), {
    from: SCHEMA_VERSION,
    to: SCHEMA_VERSION,
    storage: { from: "v1.5.0+", to: "v1.5.0+", because: ["compression"] },
  });
  // Every row is kept; `meta` gains the record of the cache created with ZSTD.
  const after = await contents(dir);
  assert.equal(parseInt(after.get("meta")!), parseInt(before.get("meta")!) + 1);
  after.set("meta", before.get("meta")!);
  assert.deepEqual(after, before);
  assert.equal(parseInt(before.get("llm_calls")!), 3_000);
  assert.deepEqual(await callCompressions(dir), ["ZSTD"]);
  assert.deepEqual((await checkWorkspace(dir)).notes, []);
  // Calls stored from now on are compressed with ZSTD too.
  const again = await openWorkspace(dir);
  await again.exec("UPDATE llm_calls SET response = response || '.' WHERE key = 'k1'");
  await again.exec("CHECKPOINT");
  again.close();
  assert.deepEqual(await callCompressions(dir), ["ZSTD"]);
  assert.deepEqual(await migrateWorkspace(dir), { from: SCHEMA_VERSION, to: SCHEMA_VERSION });
});
