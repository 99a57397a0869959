import assert from "node:assert/strict";
import { join } from "node:path";
import { checkWorkspace } from "./check_workspace.ts";
import { openWorkspace } from "./open_workspace.ts";
import { TABLES } from "./schema.ts";
import { WorkspaceStorageError } from "./storage_error.ts";

async function filledWorkspace(): Promise<string> {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  const passages = Array.from({ length: 30_000 }, (_, i) => ({
    passageId: `t${i % 7}:d${i}#0`,
    topicId: `t${i % 7}`,
    docId: `d${i}`,
    text: `passage number ${i} `.repeat(8),
    tokens: 40 + (i % 13),
  }));
  await ws.insert("passages", passages);
  await ws.insert("topics", [{ topicId: "t0", request: "r" }]);
  await ws.exec("CHECKPOINT");
  ws.close();
  return dir;
}

Deno.test("checkWorkspace reports every table of a healthy workspace with its rows", async () => {
  const dir = await filledWorkspace();
  await Deno.writeTextFile(join(dir, "llm_journal.jsonl"), '{"key":"a","status":"ok"}\n{"key":');
  const r = await checkWorkspace(dir);
  assert.deepEqual(r.problems, []);
  assert.equal(r.opened, true);
  assert.deepEqual(r.tables.map((t) => t.table), Object.keys(TABLES));
  assert.equal(r.tables.find((t) => t.table === "passages")?.rows, 30_000);
  assert.equal(r.tables.find((t) => t.table === "topics")?.rows, 1);
  assert.deepEqual(r.journal, { lines: 1, unreadable: 1 });
  assert.match(r.notes.join("\n"), /1 line\(s\) of llm_journal.jsonl are not answers/);
});

/** A workspace error saying the file is damaged and what to do, without lock hints. */
const damaged = (e: unknown) =>
  e instanceof WorkspaceStorageError && e.fault === "damaged" &&
  /crux workspace check --workspace/.test(e.message) &&
  !/Is another process using it/.test(e.message);

Deno.test("a truncated workspace: opening or reading explains it, the check says it is damaged", async () => {
  const dir = await filledWorkspace();
  const path = join(dir, "workspace.duckdb");
  const size = (await Deno.stat(path)).size;
  const f = await Deno.open(path, { write: true });
  await f.truncate(Math.floor(size / 2));
  f.close();
  const r = await checkWorkspace(dir);
  assert.ok(r.problems.length > 0);
  assert.match(r.problems.join("\n"), /is damaged: its file workspace.duckdb is truncated/);
  // The file keeps its catalog near the start: it may open, and then the first read
  // reaching the missing half fails with the same explanation.
  await assert.rejects(async () => {
    const ws = await openWorkspace(dir);
    try {
      await ws.query("SELECT sum(hash(t)) AS h FROM passages t");
    } finally {
      ws.close();
    }
  }, damaged);
  // Cut short before its catalog, the file does not open.
  const g = await Deno.open(path, { write: true });
  await g.truncate(Math.floor(size / 50));
  g.close();
  await assert.rejects(() => openWorkspace(dir), damaged);
});

Deno.test("a file that is not a database is damaged; a folder without one is named", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(join(dir, "workspace.duckdb"), "not a database ".repeat(500));
  const r = await checkWorkspace(dir);
  assert.equal(r.opened, false);
  assert.match(r.problems[0], /is damaged/);
  const empty = await checkWorkspace(await Deno.makeTempDir());
  assert.match(empty.problems[0], /does not exist: this folder holds no workspace/);
});

Deno.test("a workspace held by another writer: the message names the process, not CLI options", async () => {
  const dir = await filledWorkspace();
  const holder = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { DuckDBInstance } from "@duckdb/node-api";
       const i = await DuckDBInstance.create(${JSON.stringify(join(dir, "workspace.duckdb"))});
       await i.connect();
       console.log("held");
       await new Promise((r) => setTimeout(r, 20000));`,
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    const reader = holder.stdout.getReader();
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /held/);
    reader.releaseLock();
    await assert.rejects(
      () => openWorkspace(dir),
      (e: unknown) =>
        e instanceof WorkspaceStorageError && e.fault === "locked" &&
        new RegExp(`in use by another process \\(PID ${holder.pid}\\)`).test(e.message) &&
        !/-readonly/.test(e.message),
    );
    const r = await checkWorkspace(dir);
    assert.match(r.problems.join("\n"), /in use by another process/);
  } finally {
    holder.kill();
    await holder.status;
    await holder.stdout.cancel().catch(() => {});
  }
});

Deno.test("a full disk: the write fails with a message saying so and earlier rows are kept", async (t) => {
  // A 3 MB memory file system stands in for a full disk; mounting one needs root.
  const mnt = await Deno.makeTempDir();
  const mount = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", "size=3m", "tmpfs", mnt],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => ({ success: false }));
  if (!mount.success) {
    console.log("skipped: mounting a small file system needs root");
    return;
  }
  try {
    const dir = join(mnt, "exp");
    const ws = await openWorkspace(dir);
    await ws.insert("topics", [{ topicId: "kept", request: "r" }]);
    await ws.exec("CHECKPOINT");
    const big = Array.from({ length: 40_000 }, (_, i) => ({
      passageId: `p${i}`,
      topicId: "kept",
      docId: `d${i}`,
      text: `${i} `.repeat(60),
      tokens: 1,
    }));
    await t.step("the failed write is explained", async () => {
      await assert.rejects(
        () =>
          ws.transaction(async () => {
            for (let k = 0; k < 5; k++) {
              await ws.insert(
                "passages",
                big.map((p) => ({ ...p, passageId: p.passageId + "_" + k })),
              );
            }
          }),
        (e: unknown) =>
          e instanceof WorkspaceStorageError &&
          /disk is full|stopped accepting writes/.test(e.message) &&
          new RegExp(`crux workspace check --workspace ${dir}`).test(e.message),
      );
    });
    ws.close();
    const ro = await openWorkspace(dir, { readOnly: true }).catch(() => undefined);
    if (ro) {
      assert.deepEqual((await ro.topics()).map((x) => x.topicId), ["kept"]);
      ro.close();
    }
  } finally {
    await new Deno.Command("umount", { args: [mnt], stdout: "null", stderr: "null" }).output();
  }
});
