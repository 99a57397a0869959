/**
 * An open explorer never stops a writer: between requests the server holds no
 * handle on the workspace file, so another process (as `crux run` does) opens it
 * read-write and commits; a page asked while that process writes says so (503)
 * and answers again once it is done.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serveWorkspace } from "@lib/serve/mod.ts";
import { importSample, openWorkspace } from "@lib/store/mod.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A process that opens the workspace read-write, writes a meta row, holds it `holdMs`, exits. */
function writer(dir: string, script: string, value: string, holdMs: number) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", join(ROOT, "deno.json"), script, dir, value, String(holdMs)],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

const WRITER = `import { openWorkspace } from "@lib/store/mod.ts";
const [dir, value, hold] = Deno.args;
const ws = await openWorkspace(dir);
await ws.upsert("meta", [{ key: "written_by", value }]);
console.log("open");
await new Promise((r) => setTimeout(r, Number(hold)));
ws.close();
console.log("closed");
`;

Deno.test({
  name: "a writer process opens and writes the workspace while the explorer is up",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "explorer-writer-" });
    const ws0 = await openWorkspace(dir);
    await importSample(ws0, "datasets/sample");
    ws0.close();
    const script = join(dir, "writer.ts");
    await Deno.writeTextFile(script, WRITER);
    /** Starts a writer holding the file `holdMs`; resolves once it has the file open. */
    const holding = async (value: string, holdMs: number) => {
      const child = writer(dir, script, value, holdMs);
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let seen = "";
      while (!seen.includes("open")) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += value;
      }
      return async () => {
        while (!(await reader.read()).done) { /* until the writer exits */ }
        assert.equal((await child.status).code, 0);
      };
    };
    // The explorer starts while a writer holds the file, and answers once it is done.
    const first = await holding("zero", 1500);
    const server = await serveWorkspace(dir, { port: 0 });
    const get = async (path: string) => {
      const r = await fetch(server.url + path);
      return { status: r.status, retry: r.headers.get("retry-after"), text: await r.text() };
    };
    try {
      const early = await get("/topic/sample-01");
      assert.equal(early.status, 503);
      assert.equal(early.retry, "2");
      assert.match(early.text, /reload in a moment/);
      await first();
      assert.equal((await get("/topic/sample-01")).status, 200);
      // Twice: the second writer opens a file the explorer has read from in between.
      for (const value of ["first", "second"]) {
        const out = await writer(dir, script, value, 0).output();
        assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
        assert.equal((await get("/topic/sample-01")).status, 200);
      }
      // While a writer holds the file, a page says so and may be asked again.
      const done = await holding("third", 1500);
      assert.equal((await get("/topic/sample-01")).status, 503);
      await done();
      assert.equal((await get("/topic/sample-01")).status, 200);
    } finally {
      await server.shutdown();
    }
    const ws = await openWorkspace(dir, { readOnly: true });
    const [row] = await ws.query<{ value: string }>(
      "SELECT value FROM meta WHERE key = 'written_by'",
    );
    ws.close();
    assert.equal(row.value, "third");
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "a page asked again shows what the workspace holds now: kept only while nothing is written",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "explorer-cache-" });
    const ws0 = await openWorkspace(dir);
    await importSample(ws0, "datasets/sample");
    ws0.close();
    const server = await serveWorkspace(dir, { port: 0 });
    const get = async () => {
      const r = await fetch(`${server.url}/topic/sample-01`);
      const csp = r.headers.get("content-security-policy") ?? "";
      return { text: await r.text(), nonce: csp.match(/'nonce-([^']+)'/)?.[1] };
    };
    try {
      const first = await get();
      const again = await get();
      // The same page, each response with a nonce of its own, in its policy and its script.
      assert.equal(
        again.text.replace(`nonce="${again.nonce}"`, ""),
        first.text.replace(`nonce="${first.nonce}"`, ""),
      );
      assert.notEqual(again.nonce, first.nonce);
      assert.ok(again.text.includes(`<script nonce="${again.nonce}">`));
      // A write between two requests: the next page shows it.
      const ws = await openWorkspace(dir);
      await ws.exec(
        "UPDATE topics SET request = 'A request changed meanwhile' WHERE topic_id = $1",
        [
          "sample-01",
        ],
      );
      ws.close();
      const changed = await get();
      assert.ok(changed.text.includes("A request changed meanwhile"));
      assert.ok(!first.text.includes("A request changed meanwhile"));
      // 20 requests at once for a page not rendered since the last write: one content,
      // 20 nonces.
      const ws2 = await openWorkspace(dir);
      await ws2.exec("UPDATE topics SET request = 'Changed twice' WHERE topic_id = $1", [
        "sample-01",
      ]);
      ws2.close();
      const many = await Promise.all(Array.from({ length: 20 }, () => get()));
      const bare = new Set(many.map((m) => m.text.replace(`nonce="${m.nonce}"`, "")));
      assert.equal(bare.size, 1);
      assert.equal(new Set(many.map((m) => m.nonce)).size, 20);
      assert.ok(many[0].text.includes("Changed twice"));
    } finally {
      await server.shutdown();
    }
    await Deno.remove(dir, { recursive: true });
  },
});
