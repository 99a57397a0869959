// The lease's close: it waits for work in progress, interrupts background work,
// refuses work begun after it, and leaves no connection of the workspace open.
import assert from "node:assert/strict";
import { openWorkspace, Workspace } from "@lib/store/mod.ts";
import { WorkspaceLease } from "./_lease.ts";

async function emptyWorkspace(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "lease-" });
  (await openWorkspace(dir)).close();
  return dir;
}

/** A promise and the function resolving it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => open = resolve);
  return { wait, open };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

Deno.test("close waits for work in progress, then closes the fork and the database", async () => {
  const dir = await emptyWorkspace();
  try {
    const lease = new WorkspaceLease(dir);
    const started = gate();
    const finish = gate();
    const work = lease.use("read", async (ws) => {
      started.open();
      await finish.wait;
      return await ws.count("topics");
    });
    await started.wait;
    // The database's own connection and the work's fork.
    assert.equal(Workspace.openConnections(dir), 2);
    let closed = false;
    const closing = lease.close().then(() => closed = true);
    await tick();
    assert.equal(closed, false);
    assert.equal(Workspace.openConnections(dir), 2);
    finish.open();
    assert.equal(await work, 0);
    await closing;
    assert.equal(Workspace.openConnections(dir), 0);
    assert.equal(Workspace.opened(dir), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("after close, work is refused and the file is not opened again", async () => {
  const dir = await emptyWorkspace();
  try {
    const lease = new WorkspaceLease(dir);
    assert.equal(await lease.use("read", (ws) => ws.count("runs")), 0);
    await lease.close();
    let ran = false;
    await assert.rejects(
      lease.use("write", () => Promise.resolve(ran = true)),
      /is closing: the server is shutting down/,
    );
    assert.equal(ran, false);
    assert.equal(Workspace.openConnections(dir), 0);
    // Closed, so this process opens it read-write at once.
    const ws = await openWorkspace(dir);
    ws.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a write waiting behind a read when close begins opens nothing", async () => {
  const dir = await emptyWorkspace();
  try {
    const lease = new WorkspaceLease(dir);
    const started = gate();
    const finish = gate();
    const read = lease.use("read", async () => {
      started.open();
      await finish.wait;
      return "read";
    });
    await started.wait;
    let wrote = false;
    const write = lease.use("write", () => Promise.resolve(wrote = true));
    await tick();
    const closing = lease.close();
    finish.open();
    assert.equal(await read, "read");
    await assert.rejects(write, /is closing/);
    await closing;
    assert.equal(wrote, false);
    assert.equal(Workspace.openConnections(dir), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("close interrupts background work's query instead of waiting for it", async () => {
  const dir = await emptyWorkspace();
  try {
    const lease = new WorkspaceLease(dir);
    const opened = gate();
    // Minutes of hashing unless interrupted.
    const background = lease.use(
      "read",
      (ws) => ws.query("SELECT sum(hash(i)) AS s FROM range(3000000000) t(i)"),
      { background: true, onOpen: opened.open },
    );
    await opened.wait;
    await tick();
    await lease.close();
    await assert.rejects(background, /Interrupted/);
    assert.equal(Workspace.openConnections(dir), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
