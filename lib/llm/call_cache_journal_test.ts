import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { CallCache, type StoredCall } from "./call_cache.ts";

const call = (key: string): StoredCall => ({
  key,
  model: "m",
  endpoint: "http://h/v1 chat",
  template: "answerability@1",
  params: { temperature: 0 },
  messages: [{ role: "user", content: `q ${key}` }],
  response: "4",
  usage: { promptTokens: 10, completionTokens: 1 },
  status: "ok",
  attempts: 1,
  latencyMs: 50,
});

async function rows(
  connection: { runAndReadAll(sql: string): Promise<{ getRows(): unknown[][] }> },
) {
  return (await connection.runAndReadAll("SELECT key FROM llm_calls ORDER BY key")).getRows()
    .map((r) => String(r[0]));
}

Deno.test("a journaled put is on disk before it is committed, and the journal empties after", async () => {
  const dir = await Deno.makeTempDir();
  const journal = join(dir, "llm_journal.jsonl");
  const db = await DuckDBInstance.create(join(dir, "w.duckdb"));
  const connection = await db.connect();
  try {
    const cache = await CallCache.open(connection, { journal });
    const puts = [cache.put(call("a")), cache.put(call("b"))];
    // Both answers are in the journal the moment put returns, before any commit.
    const lines = Deno.readTextFileSync(journal).trim().split("\n");
    assert.deepEqual(lines.map((l) => JSON.parse(l).key), ["a", "b"]);
    await Promise.all(puts);
    // Readers see journaled calls whether or not they are committed yet.
    assert.equal((await cache.get("b"))?.response, "4");
    await cache.flush();
    assert.deepEqual(await rows(connection), ["a", "b"]);
    assert.equal(await Deno.readTextFile(journal), "");
  } finally {
    connection.closeSync();
    db.closeSync();
  }
});

Deno.test("a journal left by a killed process is folded in on open; a torn last line is skipped", async () => {
  const dir = await Deno.makeTempDir();
  const journal = join(dir, "llm_journal.jsonl");
  const torn = JSON.stringify(call("c")).slice(0, 40);
  await Deno.writeTextFile(
    journal,
    JSON.stringify(call("a")) + "\n" + JSON.stringify(call("b")) + "\n" + torn,
  );
  const db = await DuckDBInstance.create(join(dir, "w.duckdb"));
  const connection = await db.connect();
  try {
    const cache = await CallCache.open(connection, { journal });
    assert.equal(cache.recovered, 2);
    assert.deepEqual(await rows(connection), ["a", "b"]);
    assert.equal(await Deno.readTextFile(journal), "");
    assert.equal(await cache.get("c"), undefined);
  } finally {
    connection.closeSync();
    db.closeSync();
  }
});
