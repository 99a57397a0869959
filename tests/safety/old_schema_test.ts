/**
 * Every command that opens a workspace refuses one of an older schema with the
 * `crux workspace migrate` hint, including those that open only its model-call
 * cache (`crux llm stats`, `crux batch export`), and leaves the file as it was.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { openWorkspace } from "../../lib/store/mod.ts";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, out: io.stdout(), err: io.stderr() };
}

Deno.test("commands opening a schema-1 workspace point to crux workspace migrate and change nothing", async () => {
  const dir = await Deno.makeTempDir();
  const ws = join(dir, "ws");
  (await openWorkspace(ws)).close();
  const db = await DuckDBInstance.create(join(ws, "workspace.duckdb"));
  const c = await db.connect();
  await c.run("UPDATE meta SET value = '1' WHERE key = 'schema_version'");
  c.closeSync();
  db.closeSync();
  const before = await Deno.readFile(join(ws, "workspace.duckdb"));
  await Deno.writeTextFile(
    join(dir, "pairs.jsonl"),
    '{"id": "p", "question": "q", "context": "c"}\n',
  );
  await Deno.writeTextFile(join(dir, "cfg.json"), JSON.stringify({ name: "old", workspace: ws }));
  const commands = [
    ["llm", "stats", "--workspace", ws],
    [
      "batch",
      "export",
      "answerability",
      "--input",
      join(dir, "pairs.jsonl"),
      "--out",
      join(dir, "b.jsonl"),
      "--model",
      "m",
      "--workspace",
      ws,
    ],
    ["export", "--workspace", ws, "--table", "topics", "--out", join(dir, "t.csv")],
    ["measure", "--workspace", ws, "--run", "bm25", "-m", "P@10"],
    ["construct", "stats", "--workspace", ws],
    [
      "annotate",
      "export",
      "--workspace",
      ws,
      "--task",
      "answerability",
      "--out",
      join(dir, "labels"),
    ],
    ["serve", "--workspace", ws, "--port", "0"],
    ["run", "--config", join(dir, "cfg.json")],
  ];
  for (const args of commands) {
    const r = await crux(args);
    assert.equal(r.code, 1, `${args.slice(0, 2).join(" ")}: ${r.err}`);
    assert.match(
      r.err,
      new RegExp(`schema version 1 is older .*crux workspace migrate --workspace ${ws}`),
      args.slice(0, 2).join(" "),
    );
  }
  assert.deepEqual(await Deno.readFile(join(ws, "workspace.duckdb")), before);
  for (const name of ["b.jsonl", "t.csv", "labels"]) {
    await assert.rejects(Deno.stat(join(dir, name)), Deno.errors.NotFound, name);
  }
});
