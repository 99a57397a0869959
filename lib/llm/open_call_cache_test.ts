import assert from "node:assert/strict";
import { join } from "node:path";
import { openCallCache } from "./open_call_cache.ts";
import { storageVersionOf } from "@lib/store/mod.ts";

Deno.test("openCallCache creates the workspace database and keeps calls across openings", async () => {
  const dir = join(await Deno.makeTempDir(), "ws");
  const first = await openCallCache(dir);
  assert.equal(first.path, join(dir, "workspace.duckdb"));
  await first.cache.put({
    key: "k",
    model: "m",
    endpoint: "e",
    params: {},
    messages: [],
    response: "r",
    usage: { promptTokens: 1, completionTokens: 1 },
    status: "ok",
    attempts: 1,
    latencyMs: 1,
  });
  await first.close();
  const second = await openCallCache(dir);
  assert.equal((await second.cache.get("k"))?.response, "r");
  // Made as a workspace makes its file: the workspace storage format and checkpoint interval.
  assert.equal(await storageVersionOf(second.cache.connection), "v1.5.0+");
  const threshold = await second.cache.connection.runAndReadAll(
    "SELECT value FROM duckdb_settings() WHERE name = 'checkpoint_threshold'",
  );
  assert.equal(threshold.getRowsJS()[0][0], "256.0 MiB");
  await second.close();
  await Deno.remove(dir, { recursive: true });
});
