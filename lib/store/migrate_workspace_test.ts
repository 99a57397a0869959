import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { importSample, migrateWorkspace, openWorkspace, SCHEMA_VERSION } from "./mod.ts";

const sample = new URL("../../datasets/sample", import.meta.url).pathname;

/** A workspace as version 1 left it: no provenance tables, version 1 in meta. */
async function versionOne(dir: string) {
  const ws = await openWorkspace(dir);
  await importSample(ws, sample);
  await ws.upsert("generations", [
    {
      run: "rag-bm25",
      topicId: "sample-01",
      text: "A report.",
      condition: "rag",
      backend: "extractive",
    },
    { run: "direct", topicId: "sample-01", text: "", condition: "direct", backend: "extractive" },
  ]);
  await ws.upsert("ratings", [
    {
      topicId: "sample-01",
      itemId: "sample-01:report:rag-bm25",
      questionId: "sample-01#q1",
      rating: 4,
      judge: "lexical",
    },
  ]);
  ws.close();
  const db = await DuckDBInstance.create(join(dir, "workspace.duckdb"));
  const c = await db.connect();
  for (const t of ["rated_items", "generation_info", "run_info", "qrels_info"]) {
    await c.run(`DROP TABLE ${t}`);
  }
  await c.run(`CREATE TABLE metrics (run VARCHAR, topic_id VARCHAR, measure VARCHAR, value DOUBLE,
    PRIMARY KEY (run, topic_id, measure))`);
  await c.run("INSERT INTO metrics VALUES ('bm25', 'all', 'Cov@10', 0.625)");
  await c.run("DROP TABLE memo");
  await c.run("UPDATE meta SET value = '1' WHERE key = 'schema_version'");
  c.closeSync();
  db.closeSync();
}

Deno.test("an older workspace is refused with the way forward, and migrates keeping its rows", async () => {
  const dir = await Deno.makeTempDir();
  await versionOne(dir);
  await assert.rejects(
    () => openWorkspace(dir),
    new RegExp(
      `schema version 1 is older than this workbench's ${SCHEMA_VERSION}.*crux workspace migrate --workspace`,
    ),
  );
  assert.deepEqual(await migrateWorkspace(dir), { from: 1, to: SCHEMA_VERSION });
  assert.deepEqual(await migrateWorkspace(dir), { from: SCHEMA_VERSION, to: SCHEMA_VERSION });
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    assert.equal(await ws.count("ratings"), 981);
    const kinds = await ws.query<{ itemKind: string; judge: string; n: number }>(
      "SELECT item_kind, judge, count(*)::INTEGER AS n FROM rated_items GROUP BY ALL ORDER BY ALL",
    );
    // The sample rates 85 passages and 10 human summaries; one report was judged by lexical.
    assert.deepEqual(kinds.map((k) => [k.itemKind, k.judge, k.n]), [
      ["passage", "human", 85],
      ["reference", "human", 10],
      ["report", "lexical", 1],
    ]);
    const report = await ws.query<{ run: string }>(
      "SELECT run FROM rated_items WHERE item_kind = 'report'",
    );
    assert.deepEqual(report, [{ run: "rag-bm25" }]);
    const gens = await ws.query<{ run: string; condition: string; contextRun: string | null }>(
      "SELECT run, condition, context_run FROM generation_info ORDER BY run",
    );
    assert.deepEqual(gens, [
      { run: "direct", condition: "direct", contextRun: null },
      { run: "rag-bm25", condition: "rag", contextRun: "bm25" },
    ]);
    // The old metrics rows are kept under another name; the measure table and the
    // memo exist (empty until something is measured).
    assert.deepEqual(await ws.query("SELECT * FROM legacy_metrics"), [
      { run: "bm25", topicId: "all", measure: "Cov@10", value: 0.625 },
    ]);
    const tables = await ws.query<{ tableName: string }>(
      `SELECT table_name FROM duckdb_tables()
       WHERE table_name IN ('metrics', 'measures', 'measure_inputs', 'stage_runs', 'memo')
       ORDER BY 1`,
    );
    assert.deepEqual(tables.map((t) => t.tableName), ["measures", "memo"]);
  } finally {
    ws.close();
  }
});

Deno.test("a version 4 workspace migrates to ratings keyed by topic, keeping its rows", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  ws.close();
  const db = await DuckDBInstance.create(join(dir, "workspace.duckdb"));
  const c = await db.connect();
  // Version 4 keyed a rating by (item, question, judge) and a rated item by (item, judge).
  await c.run("DROP TABLE ratings");
  await c.run("DROP TABLE rated_items");
  await c.run(`CREATE TABLE ratings (topic_id VARCHAR, item_id VARCHAR, question_id VARCHAR,
    rating INTEGER, judge VARCHAR, PRIMARY KEY (item_id, question_id, judge))`);
  await c.run(`CREATE TABLE rated_items (item_id VARCHAR, judge VARCHAR, topic_id VARCHAR,
    item_kind VARCHAR, run VARCHAR, PRIMARY KEY (item_id, judge))`);
  await c.run(
    `INSERT INTO ratings VALUES ('a', 'a:0#1', 'a#q1', 4, 'j'), ('a', 'a:0#1', 'a#q2', 1, 'j'),
    ('a', 'a:report', 'a#q1', 5, 'j')`,
  );
  await c.run(`INSERT INTO rated_items VALUES ('a:0#1', 'j', 'a', 'passage', NULL),
    ('a:report', 'j', 'a', 'reference', NULL)`);
  await c.run("UPDATE meta SET value = '4' WHERE key = 'schema_version'");
  c.closeSync();
  db.closeSync();
  await assert.rejects(() => openWorkspace(dir), /schema version 4 is older/);
  assert.deepEqual(await migrateWorkspace(dir), { from: 4, to: SCHEMA_VERSION });
  const after = await openWorkspace(dir);
  try {
    // The same passage rated under a second topic now has rows of its own.
    await after.upsert("ratings", [
      { topicId: "b", itemId: "a:0#1", questionId: "a#q1", rating: 2, judge: "j" },
    ]);
    const ratings = await after.query<{ topicId: string; questionId: string; rating: number }>(
      "SELECT topic_id, question_id, rating FROM ratings WHERE item_id = 'a:0#1' ORDER BY ALL",
    );
    assert.deepEqual(ratings.map((r) => [r.topicId, r.questionId, r.rating]), [
      ["a", "a#q1", 4],
      ["a", "a#q2", 1],
      ["b", "a#q1", 2],
    ]);
    const items = await after.query<{ topicId: string; itemId: string; itemKind: string }>(
      "SELECT topic_id, item_id, item_kind FROM rated_items ORDER BY ALL",
    );
    assert.deepEqual(items.map((i) => [i.topicId, i.itemId, i.itemKind]), [
      ["a", "a:0#1", "passage"],
      ["a", "a:report", "reference"],
      ["b", "a:0#1", "passage"],
    ]);
    const keys = await after.query<{ table: string; columns: string[] }>(
      `SELECT table_name AS "table", constraint_column_names AS columns FROM duckdb_constraints()
       WHERE constraint_type = 'PRIMARY KEY' AND table_name IN ('ratings', 'rated_items')
       ORDER BY 1`,
    );
    assert.deepEqual(keys.map((k) => [k.table, [...k.columns]]), [
      ["rated_items", ["topic_id", "item_id", "judge"]],
      ["ratings", ["topic_id", "item_id", "question_id", "judge"]],
    ]);
  } finally {
    after.close();
  }
});

Deno.test("a version 5 workspace migrates to measures with a topic set, its rows kept without one", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  ws.close();
  const db = await DuckDBInstance.create(join(dir, "workspace.duckdb"));
  const c = await db.connect();
  // Version 5's measures had no topic_set column.
  await c.run("DROP TABLE measures");
  await c.run(`CREATE TABLE measures (
    run VARCHAR, topic_id VARCHAR, measure VARCHAR, name VARCHAR, cutoff VARCHAR,
    method VARCHAR, judge VARCHAR, source VARCHAR, value DOUBLE, topics INTEGER,
    PRIMARY KEY (run, topic_id, measure, judge, source))`);
  await c.run(
    "INSERT INTO measures VALUES ('bm25', 'all', 'Cov@10', 'Cov', '10', 'trec', 'j', 'selection', 0.5, 2)",
  );
  await c.run("UPDATE meta SET value = '5' WHERE key = 'schema_version'");
  c.closeSync();
  db.closeSync();
  await assert.rejects(() => openWorkspace(dir), /schema version 5 is older/);
  assert.deepEqual(await migrateWorkspace(dir), { from: 5, to: SCHEMA_VERSION });
  const after = await openWorkspace(dir);
  try {
    const rows = await after.query<{ value: number; topics: number; topicSet: string | null }>(
      "SELECT value, topics, topic_set FROM measures",
    );
    assert.deepEqual(rows.map((r) => [r.value, Number(r.topics), r.topicSet]), [[0.5, 2, null]]);
    await after.upsert("measures", [{
      run: "bm25",
      topicId: "t1",
      measure: "Cov@10",
      name: "Cov",
      cutoff: "10",
      method: "trec",
      judge: "j",
      source: "selection",
      value: 1,
      topics: null,
      topicSet: "topic(id=t1)",
    }]);
    const set = await after.query<{ topicSet: string }>(
      "SELECT topic_set FROM measures WHERE topic_id = 't1'",
    );
    assert.deepEqual(set.map((r) => r.topicSet), ["topic(id=t1)"]);
  } finally {
    after.close();
  }
});
