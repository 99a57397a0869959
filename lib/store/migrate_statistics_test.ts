import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import {
  importSample,
  measureRow,
  migrateWorkspace,
  openWorkspace,
  readStatistics,
  SCHEMA_VERSION,
  TABLES,
  writeStatistics,
} from "./mod.ts";
import { oldFormatCopy } from "../../tests/support/old_format_workspace.ts";

const sample = new URL("../../datasets/sample", import.meta.url).pathname;

/** Rows of every table of the workspace in `dir` (closed), by table. */
async function tableCounts(dir: string): Promise<Record<string, number>> {
  const db = await DuckDBInstance.create(join(dir, "workspace.duckdb"));
  const c = await db.connect();
  try {
    const out: Record<string, number> = {};
    const names = (await c.runAndReadAll(
      "SELECT table_name FROM duckdb_tables() ORDER BY table_name",
    )).getRowsJS().map((r) => String(r[0]));
    for (const t of names) {
      out[t] = Number((await c.runAndReadAll(`SELECT count(*) FROM ${t}`)).getRowsJS()[0][0]);
    }
    return out;
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

Deno.test("a version 5 workspace migrates to version 6, keeping every row and adding the statistics and caveats tables", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  await importSample(ws, sample);
  await ws.upsert("measures", [
    measureRow({ run: "bm25", topicId: "all", measure: "P@10", method: "trec", value: 0.4 }),
  ]);
  ws.close();
  // Version 5 had neither table.
  const db = await DuckDBInstance.create(join(dir, "workspace.duckdb"));
  const c = await db.connect();
  await c.run("DROP TABLE statistics");
  await c.run("DROP TABLE caveats");
  await c.run("UPDATE meta SET value = '5' WHERE key = 'schema_version'");
  c.closeSync();
  db.closeSync();
  // ... and, made before the workbench chose its storage format, an older one.
  const old = await oldFormatCopy(dir);
  const before = await tableCounts(old.dir);
  assert.equal(before.statistics, undefined);
  assert.equal(before.ratings > 0 && before.measures === 1, true);
  await assert.rejects(() => openWorkspace(old.dir), /schema version 5 is older/);
  const result = await migrateWorkspace(old.dir);
  assert.deepEqual([result.from, result.to, SCHEMA_VERSION], [5, 6, 6]);
  const after = await tableCounts(old.dir);
  // Every table keeps its rows; only the two new ones are added, empty.
  assert.deepEqual(after, { ...before, caveats: 0, statistics: 0 });
  assert.deepEqual(Object.keys(after).sort(), Object.keys(TABLES).sort());
  const ws2 = await openWorkspace(old.dir);
  try {
    const x = [{ run: "bm25", source: "", judge: "", measure: "P@10" }];
    await writeStatistics(ws2, [{
      key: { statistic: "mean", x, topicSet: "all" },
      value: 0.4,
      n: 1,
      reason: "",
    }]);
    assert.equal((await readStatistics(ws2))[0].value, 0.4);
  } finally {
    ws2.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(old.dir, { recursive: true });
  }
});
