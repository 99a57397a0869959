/**
 * A workspace of schema version 3 kept three memos: `stage_runs`, the measure
 * step's `measure_inputs` with `meta` keys `measure_values:[...]`, and
 * `file_memo.json` in its folder. Migration moves them into the one table
 * `memo`, so an up-to-date workspace re-runs no stage, evaluates no measure and
 * hashes no input file again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import type { RetrievalConfig } from "@lib/construct/mod.ts";
import { measureValues } from "@lib/methods/mod.ts";
import { migrateWorkspace, openWorkspace, readMemo, SCHEMA_VERSION } from "@lib/store/mod.ts";
import { rememberByFile } from "../../lib/pipeline/_file_memo.ts";
import { testConfig } from "./_config.ts";
import { tinyWorkspaceDir } from "./_tiny.ts";

/** Every memo record, comparable across the migration. */
async function memoRows(dir: string) {
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    const all = [];
    for (const kind of ["stage", "measure", "file"] as const) {
      for (const r of (await readMemo(ws, kind)).values()) {
        // `file_memo.json` kept no time: a migrated file record is dated by the migration.
        all.push({ ...r, recordedAt: kind === "file" ? 0 : r.recordedAt.getTime() });
      }
    }
    return all;
  } finally {
    ws.close();
  }
}

/** Rewrites the workspace as schema version 3 left it, from its memo records. */
async function toVersionThree(dir: string): Promise<void> {
  const db = await DuckDBInstance.create(join(dir, "workspace.duckdb"));
  const c = await db.connect();
  try {
    await c.run(`CREATE TABLE stage_runs (id VARCHAR PRIMARY KEY, stage VARCHAR,
      fingerprint VARCHAR, params JSON, summary VARCHAR, finished_at TIMESTAMP)`);
    await c.run(`INSERT INTO stage_runs SELECT key, payload->>'stage', fingerprint,
      payload->'params', payload->>'summary', recorded_at FROM memo WHERE kind = 'stage'`);
    await c.run(`CREATE TABLE measure_inputs (run VARCHAR, judge VARCHAR, fingerprint VARCHAR,
      computed_at TIMESTAMP, PRIMARY KEY (run, judge))`);
    await c.run(`INSERT INTO measure_inputs SELECT json_extract_string(key, '$[0]'),
      json_extract_string(key, '$[1]'), fingerprint, recorded_at
      FROM memo WHERE kind = 'measure'`);
    await c.run(`INSERT INTO meta SELECT 'measure_values:' || key, payload::VARCHAR
      FROM memo WHERE kind = 'measure'`);
    const files = (await c.runAndReadAll(
      "SELECT key, fingerprint, payload::VARCHAR FROM memo WHERE kind = 'file'",
    )).getRowsJS();
    const memo: Record<string, { identity: string; value: unknown }> = {};
    for (const [key, identity, payload] of files) {
      const [what, path] = JSON.parse(String(key));
      memo[`${what}\u0000${path}`] = {
        identity: String(identity),
        value: JSON.parse(String(payload)),
      };
    }
    await Deno.writeTextFile(join(dir, "file_memo.json"), JSON.stringify(memo));
    await c.run("DROP TABLE memo");
    await c.run("UPDATE meta SET value = '3' WHERE key = 'schema_version'");
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

Deno.test({
  name:
    "a version 3 workspace migrates its three memos into one: nothing runs, is measured or hashed again",
  sanitizeResources: false,
  fn: async () => {
    const dir = await tinyWorkspaceDir();
    try {
      const base = { workspace: dir, construct: { questions: 4 } };
      await runCruxExperiment(testConfig(base), { until: "construct" });
      let ws = await openWorkspace(dir);
      const passages = (await ws.passages()).sort((a, b) => a.passageId < b.passageId ? 1 : -1);
      ws.close();
      const path = join(dir, "outside.trec");
      await Deno.writeTextFile(
        path,
        passages.map((p, i) => `${p.topicId} Q0 ${p.passageId} ${i + 1} ${10 - i} theirs\n`)
          .join(""),
      );
      const retrieve: RetrievalConfig[] = [
        { name: "bm25", k: 10 },
        { name: "outside", kind: "file", path },
      ];
      const config = testConfig({ ...base, retrieve });
      await runCruxExperiment(config, { until: "measure" });
      // The declaration of the second run finds the workspace and remembers the file's digest.
      assert.deepEqual((await runCruxExperiment(config, { until: "measure" })).stages.ran, []);
      ws = await openWorkspace(dir);
      try {
        await measureValues(ws, ["bm25", "outside"], ["P@10", "Cov@10"]);
      } finally {
        ws.close();
      }
      // A fresh workspace keeps every memo in the one table: no other memo table, no
      // memo keys in `meta`, no memo file beside the workspace.
      ws = await openWorkspace(dir, { readOnly: true });
      try {
        assert.deepEqual(
          await ws.query(
            `SELECT table_name AS name FROM duckdb_tables()
             WHERE table_name IN ('stage_runs', 'measure_inputs', 'memo')`,
          ),
          [{ name: "memo" }],
        );
        assert.deepEqual(
          await ws.query("SELECT key FROM meta WHERE starts_with(key, 'measure_values:')"),
          [],
        );
      } finally {
        ws.close();
      }
      assert.deepEqual(
        [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".json")),
        [],
      );
      const before = await memoRows(dir);
      const kinds = before.map((r) => r.kind);
      assert.ok(kinds.includes("stage") && kinds.includes("measure"), kinds.join());
      assert.deepEqual(
        before.filter((r) => r.kind === "file").map((r) => r.key),
        [JSON.stringify(["sha256", path])],
      );

      await toVersionThree(dir);
      await assert.rejects(() => openWorkspace(dir), /schema version 3 is older/);
      assert.deepEqual(await migrateWorkspace(dir), { from: 3, to: SCHEMA_VERSION });
      // Every record comes back as it was; the old tables, keys and file are gone.
      assert.deepEqual(await memoRows(dir), before);
      await assert.rejects(() => Deno.stat(join(dir, "file_memo.json")), Deno.errors.NotFound);
      ws = await openWorkspace(dir);
      try {
        assert.deepEqual(
          await ws.query(
            `SELECT table_name FROM duckdb_tables()
             WHERE table_name IN ('stage_runs', 'measure_inputs')`,
          ),
          [],
        );
        assert.deepEqual(
          await ws.query("SELECT key FROM meta WHERE starts_with(key, 'measure_values:')"),
          [],
        );
        // The measure step reads every value back.
        const m = await measureValues(ws, ["bm25", "outside"], ["P@10", "Cov@10"]);
        assert.deepEqual([m.reused, m.computed], [4, 0]);
        assert.deepEqual(m.runs.map((r) => r.inputs), ["unchanged", "unchanged"]);
      } finally {
        ws.close();
      }
      // No stage runs again, and the input file is not hashed again.
      assert.deepEqual((await runCruxExperiment(config, { until: "measure" })).stages.ran, []);
      let hashed = 0;
      await rememberByFile(path, "sha256", () => Promise.resolve(String(++hashed)), dir);
      assert.equal(hashed, 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
