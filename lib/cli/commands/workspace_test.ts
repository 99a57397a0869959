import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { workspaceCommand } from "./workspace.ts";

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
