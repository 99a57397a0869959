import assert from "node:assert/strict";
import { join } from "node:path";
import { openWorkspace } from "@lib/store/mod.ts";
import { CallCache, type StoredCall } from "./call_cache.ts";

const call = (key: string): StoredCall => ({
  key,
  model: "m",
  endpoint: "http://h/v1 chat",
  template: "t@1",
  params: {},
  messages: [{ role: "user", content: key }],
  response: `answer ${key}`,
  usage: { promptTokens: 3, completionTokens: 1 },
  status: "ok",
  attempts: 1,
  latencyMs: 5,
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const journaled of [false, true]) {
  Deno.test(
    `cache writes, exec and upserts on one workspace connection queue on its writer${
      journaled ? " (journaled cache)" : ""
    }: a rolled-back transaction takes none of them`,
    async () => {
      const dir = await Deno.makeTempDir();
      const ws = await openWorkspace(dir);
      try {
        // The cache on the workspace's own connection, as the pipeline's role clients open it.
        const cache = await CallCache.open(ws.connection, {
          journal: journaled ? join(dir, "journal.jsonl") : undefined,
          commitRows: 5,
          commitMs: 0,
        });
        // A transaction on the same connection that writes, waits, then fails: before
        // the writes below queued, they ran inside it and were rolled back with it.
        let inside!: () => void;
        const started = new Promise<void>((r) => inside = r);
        const failing = ws.transaction(async () => {
          await ws.exec("INSERT INTO meta VALUES ('doomed', '1')");
          inside();
          await pause(80);
          throw new Error("rolled back on purpose");
        });
        await started;
        const puts = Array.from({ length: 40 }, (_, i) => cache.put(call(`k${i}`)));
        const hits = cache.addHits("m", "t@1", 7);
        const execs = Array.from(
          { length: 10 },
          (_, i) => ws.exec("INSERT OR REPLACE INTO meta VALUES ($1, $2)", [`exec-${i}`, `${i}`]),
        );
        const upserts = Array.from(
          { length: 10 },
          (_, i) => ws.upsert("meta", [{ key: `upsert-${i}`, value: `${i * i}` }]),
        );
        await assert.rejects(failing, /rolled back on purpose/);
        await Promise.all([...puts, hits, ...execs, ...upserts]);
        await cache.flush();
        const meta = new Map(
          (await ws.query<{ key: string; value: string }>("SELECT key, value FROM meta"))
            .map((r) => [r.key, r.value]),
        );
        assert.equal(meta.has("doomed"), false);
        for (let i = 0; i < 10; i++) {
          assert.equal(meta.get(`exec-${i}`), `${i}`);
          assert.equal(meta.get(`upsert-${i}`), `${i * i}`);
        }
        const stored = await ws.query<{ key: string; response: string }>(
          "SELECT key, response FROM llm_calls ORDER BY key",
        );
        assert.equal(stored.length, 40);
        for (const r of stored) assert.equal(r.response, `answer ${r.key}`);
        const stats = await cache.stats();
        assert.equal(stats[0].hits, 7);
        assert.equal(stats[0].calls, 40);
        cache.release();
      } finally {
        ws.close();
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
}
