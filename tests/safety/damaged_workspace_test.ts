/**
 * A workspace cut short (a copy that lost its last megabytes) is refused by
 * every command that opens it for work, with the verdict of `crux workspace
 * check`: the tables that cannot be read, and a non-zero exit. A healthy
 * workspace pays only a file size and one block-count query for the check.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { checkWorkspace, openWorkspace, WorkspaceStorageError } from "../../lib/store/mod.ts";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, out: io.stdout(), err: io.stderr() };
}

/** A workspace spanning several blocks: many passages, then a checkpoint. */
async function filled(): Promise<string> {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  await ws.insert("topics", [{ topicId: "t0", request: "storms" }]);
  await ws.insert(
    "passages",
    Array.from({ length: 40_000 }, (_, i) => ({
      passageId: `t0:d${i}#0`,
      topicId: "t0",
      docId: `d${i}`,
      text: `passage ${i} about storms and coasts `.repeat(6),
      tokens: 30 + (i % 11),
    })),
  );
  await ws.exec("CHECKPOINT");
  ws.close();
  return dir;
}

Deno.test("a workspace cut short is refused by run, measure, a notebook's open and serve, as check says", async () => {
  const dir = await filled();
  const path = join(dir, "workspace.duckdb");
  const size = (await Deno.stat(path)).size;
  const block = 262_144;
  assert.ok(size > 4 * block, `the workspace spans several blocks (${size} bytes)`);
  // Cut the last blocks, as a copy cut short would.
  const cut = size - 2 * block;
  const f = await Deno.open(path, { write: true });
  await f.truncate(cut);
  f.close();
  const report = await checkWorkspace(dir);
  const unreadable = report.tables.filter((t) => t.problem && t.problem !== "missing")
    .map((t) => t.table);
  assert.ok(unreadable.length > 0, "the check finds tables it cannot read");
  const verdict = new RegExp(
    `Workspace "${dir}" is damaged: workspace.duckdb holds ${cut} bytes, its \\d+ blocks need ` +
      `\\d+ .*; ${unreadable.length} table\\(s\\) cannot be read: ${unreadable.join(", ")}\\. ` +
      `Nothing was read or written\\. \`crux workspace check --workspace ${dir}\``,
  );
  const bytes = await Deno.readFile(path);

  // A notebook opens the workspace with openWorkspace, read-only or not.
  for (const readOnly of [true, false]) {
    await assert.rejects(
      openWorkspace(dir, { readOnly }),
      (e: unknown) =>
        e instanceof WorkspaceStorageError && e.fault === "damaged" &&
        verdict.test(e.message),
    );
  }
  const config = join(dir, "..", `${dir.split("/").pop()}-config.json`);
  await Deno.writeTextFile(config, JSON.stringify({ name: "cut", workspace: dir }));
  const commands = [
    ["run", "--config", config],
    ["measure", "--workspace", dir, "--run", "bm25", "-m", "P@10"],
    ["serve", "--workspace", dir, "--port", "0"],
    ["export", "--workspace", dir, "--table", "topics", "--out", join(dir, "..", "t.csv")],
  ];
  for (const args of commands) {
    const r = await crux(args);
    assert.equal(r.code, 1, `${args[0]}: ${r.err}`);
    assert.match(r.err, verdict, args[0]);
  }
  assert.deepEqual(await Deno.readFile(path), bytes, "the damaged file is left as it was");
  await Deno.remove(config);
});

Deno.test("a healthy workspace opens as before", async () => {
  const dir = await filled();
  const ws = await openWorkspace(dir, { readOnly: true });
  assert.equal(await ws.count("passages"), 40_000);
  ws.close();
  const r = await crux(["export", "--workspace", dir, "--table", "topics", "--out", `${dir}.csv`]);
  assert.equal(r.code, 0, r.err);
  assert.match(await Deno.readTextFile(`${dir}.csv`), /\nt0,storms,,,\n$/);
});
