/**
 * Shutting the explorer down while it reads: `shutdown()` resolves only once the
 * rows read in the background and the requests being answered have ended and
 * every DuckDB connection and database of the workspace is closed, so the file
 * opens read-write at once and nothing of it is left for a worker to finalize.
 */
import assert from "node:assert/strict";
import { serveWorkspace } from "@lib/serve/mod.ts";
import { importSample, openWorkspace, Workspace } from "@lib/store/mod.ts";

/** The sample experiment (10 topics) in a new folder. */
async function sampleWorkspace(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "serve-shutdown-" });
  const ws = await openWorkspace(dir);
  await importSample(ws, "datasets/sample");
  ws.close();
  return dir;
}

/** Waits (at most 30 s) until `ready()` holds. */
async function until(ready: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** After the server: nothing of the workspace is open, and it opens read-write. */
async function assertClosed(dir: string): Promise<void> {
  assert.equal(Workspace.openConnections(dir), 0);
  assert.equal(Workspace.opened(dir), undefined);
  const ws = await openWorkspace(dir);
  try {
    assert.equal(await ws.count("topics"), 10);
  } finally {
    ws.close();
  }
  assert.equal(Workspace.openConnections(dir), 0);
}

Deno.test("shutdown during the background row reads closes every connection before it resolves", async () => {
  const dir = await sampleWorkspace();
  try {
    const server = await serveWorkspace(dir, { port: 0 });
    // The rows of topic, report and compare pages are being read on connections of their own.
    await until(() => Workspace.openConnections(dir) > 0, "the background reads hold the file");
    await server.shutdown();
    await assertClosed(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("shutdown with pages being answered waits for them, then closes every connection", async () => {
  const dir = await sampleWorkspace();
  try {
    const server = await serveWorkspace(dir, { port: 0 });
    await until(() => Workspace.openConnections(dir) > 0, "the background reads hold the file");
    const paths = ["/topic/sample-01", "/topic/sample-02?k=5", "/", "/topic/sample-03"];
    const answers = paths.map((path) =>
      fetch(`${server.url}${path}`).then(
        async (res) => ({ path, status: res.status, body: await res.text() }),
        // A request the server had not accepted before shutdown began is refused.
        (error: unknown) => ({ path, error }),
      )
    );
    // Each page is in flight or done: its connection is open, or it has been answered.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await server.shutdown();
    await assertClosed(dir);
    for (const answer of await Promise.all(answers)) {
      if ("error" in answer) {
        assert.ok(answer.error instanceof TypeError, `${answer.path}: ${answer.error}`);
        continue;
      }
      assert.equal(answer.status, 200, answer.path);
      if (answer.path.startsWith("/topic/")) {
        assert.match(answer.body, new RegExp(answer.path.slice(7, 16)));
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a server stopped by its signal has closed the workspace when `finished` resolves", async () => {
  const dir = await sampleWorkspace();
  try {
    const stop = new AbortController();
    const server = await serveWorkspace(dir, { port: 0, signal: stop.signal });
    await until(() => Workspace.openConnections(dir) > 0, "the background reads hold the file");
    stop.abort();
    await server.finished;
    await assertClosed(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
