import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
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

/** Journal files on disk (active file and segments), by name. */
function journalFiles(journal: string): string[] {
  const dir = dirname(journal);
  return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
    n.startsWith(basename(journal))
  ).sort();
}

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
    // Nothing is committed before the group is full, old enough, or flushed.
    assert.deepEqual(await rows(connection), []);
    await cache.flush();
    assert.deepEqual(await rows(connection), ["a", "b"]);
    assert.deepEqual(journalFiles(journal), []);
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
    assert.deepEqual(journalFiles(journal), []);
    assert.equal(await cache.get("c"), undefined);
  } finally {
    connection.closeSync();
    db.closeSync();
  }
});

Deno.test("journaled calls commit in groups of commitRows; a kill between groups loses nothing", async () => {
  const dir = await Deno.makeTempDir();
  const journal = join(dir, "llm_journal.jsonl");
  const db = await DuckDBInstance.create(join(dir, "w.duckdb"));
  let connection = await db.connect();
  try {
    const cache = await CallCache.open(connection, { journal, commitRows: 3, commitMs: 60_000 });
    for (const k of ["a", "b", "c", "d"]) await cache.put(call(k));
    // The third put started a commit of a, b, c (its segment is deleted after); d waits.
    await cache.get("a"); // runs after the commit on the cache's queue
    assert.equal(cache.commits, 1);
    assert.deepEqual(await rows(connection), ["a", "b", "c"]);
    assert.deepEqual(journalFiles(journal), ["llm_journal.jsonl"]);
    assert.deepEqual(
      Deno.readTextFileSync(journal).trim().split("\n").map((l) => JSON.parse(l).key),
      ["d"],
    );
    // A killed process: the connection goes without a flush; d is only in the journal.
    connection.closeSync();
    connection = await db.connect();
    const again = await CallCache.open(connection, { journal });
    assert.equal(again.recovered, 1);
    assert.deepEqual(await rows(connection), ["a", "b", "c", "d"]);
    assert.deepEqual(journalFiles(journal), []);
  } finally {
    connection.closeSync();
    db.closeSync();
  }
});

Deno.test("segments a killed process left mid-commit are folded in, later calls winning", async () => {
  const dir = await Deno.makeTempDir();
  const journal = join(dir, "llm_journal.jsonl");
  await Deno.writeTextFile(`${journal}.2`, JSON.stringify(call("a")) + "\n");
  await Deno.writeTextFile(
    journal,
    JSON.stringify({ ...call("a"), response: "5" }) + "\n" + JSON.stringify(call("b")) + "\n",
  );
  const db = await DuckDBInstance.create(join(dir, "w.duckdb"));
  const connection = await db.connect();
  try {
    const cache = await CallCache.open(connection, { journal });
    assert.equal(cache.recovered, 2);
    assert.equal((await cache.get("a"))?.response, "5");
    assert.deepEqual(await rows(connection), ["a", "b"]);
    assert.deepEqual(journalFiles(journal), []);
    // Numbering goes on after the highest segment found.
    await cache.put(call("c"));
    await cache.flush();
    assert.deepEqual(journalFiles(journal), []);
    assert.deepEqual(await rows(connection), ["a", "b", "c"]);
  } finally {
    connection.closeSync();
    db.closeSync();
  }
});
