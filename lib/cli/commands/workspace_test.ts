import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { openWorkspace, SCHEMA_VERSION } from "@lib/store/mod.ts";
import { oldFormatCopy } from "../../../tests/support/old_format_workspace.ts";
import { rewriteLine, workspaceCommand } from "./workspace.ts";

async function workspaceWithRuns(n: number): Promise<string> {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  await ws.insert(
    "runs",
    Array.from({ length: n }, (_, i) => ({
      run: "bm25",
      topicId: `t${i % 50}`,
      docId: `d${i}`,
      rank: 1 + Math.floor(i / 50),
      score: 1 / (1 + i),
    })),
  );
  await ws.exec("CHECKPOINT");
  ws.close();
  return dir;
}

Deno.test("crux workspace check: a healthy workspace prints rows per table and exits 0", async () => {
  const dir = await workspaceWithRuns(100);
  const io = memoryIo();
  assert.equal(await main(["workspace", "check", "--workspace", dir], io, [workspaceCommand]), 0);
  const out = io.stdout();
  assert.match(out, /^Workspace /);
  assert.match(out, /\n {2}runs +100 rows\n/);
  assert.match(out, /\n {2}topics +0 rows\n/);
  assert.match(out, /OK: every table reads to the end\n$/);
});

Deno.test("crux workspace check: a truncated workspace exits 1 and says what to do", async () => {
  const dir = await workspaceWithRuns(200_000);
  const path = join(dir, "workspace.duckdb");
  const size = (await Deno.stat(path)).size;
  const f = await Deno.open(path, { write: true });
  await f.truncate(Math.floor(size * 0.6));
  f.close();
  const io = memoryIo();
  assert.equal(await main(["workspace", "check", "--workspace", dir], io, [workspaceCommand]), 1);
  assert.match(io.stdout(), /Problem: .*is damaged/);
  assert.match(io.stdout(), /restore the folder from a backup, or move it aside and rebuild it/);
  // Every other command that opens it says the same, never "Is another process using it?".
  const io2 = memoryIo();
  assert.equal(
    await main(["workspace", "migrate", "--workspace", dir], io2, [workspaceCommand]),
    1,
  );
  assert.match(io2.stderr(), /is damaged: its file workspace.duckdb is truncated/);
  assert.doesNotMatch(io2.stderr(), /another process/);
});

Deno.test("crux workspace migrate tells how the rewrite of an older storage format goes", async () => {
  const current = await workspaceWithRuns(3_000);
  // The same workspace in the storage format DuckDB uses when not told otherwise.
  const { dir: old, rows, tables } = await oldFormatCopy(current);
  assert.ok(Number(rows) >= 3_000);
  const io = memoryIo();
  assert.equal(await main(["workspace", "migrate", "--workspace", old], io, [workspaceCommand]), 0);
  assert.equal(
    io.stdout(),
    `Workspace ${old} is already at schema version ${SCHEMA_VERSION}\n` +
      `Rewrote ${old}/workspace.duckdb in storage format v1.5.0+ (was v1.0.0+); ` +
      "every table was copied\n",
  );
  const lines = io.stderr().trimEnd().split("\n");
  assert.equal(
    lines[0],
    `rewriting the storage: ${
      Number(rows).toLocaleString("en-US")
    } rows in ${tables} tables to copy`,
  );
  assert.match(lines.at(-2)!, /^ {2}every row copied; writing the new file, \d+\.\d s$/);
  assert.match(lines.at(-1)!, /^ {2}new file complete in \d+\.\d s$/);
});

Deno.test("storage rewrite lines give rows, share, tables and seconds", () => {
  const p = { rowsRead: 1_234_567, rowsTotal: 2_469_134, tables: 3, tablesTotal: 35 };
  assert.equal(
    rewriteLine({ phase: "copying", ...p, elapsedMs: 12_345 }),
    "  1,234,567 of 2,469,134 rows read (50%), 3 of 35 tables copied, 12.3 s",
  );
  assert.equal(
    rewriteLine({ phase: "start", ...p, rowsRead: 0, tables: 0, elapsedMs: 5 }),
    "rewriting the storage: 2,469,134 rows in 35 tables to copy",
  );
  assert.equal(
    rewriteLine({ phase: "copying", ...p, rowsRead: 0, rowsTotal: 0, elapsedMs: 0 }),
    "  0 of 0 rows read, 3 of 35 tables copied, 0.0 s",
  );
});
