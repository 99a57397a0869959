import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
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

/** The text of every journal file, in name order. */
function journalText(journal: string): string {
  return journalFiles(journal).map((n) => Deno.readTextFileSync(join(dirname(journal), n)))
    .join("");
}

async function rows(
  connection: { runAndReadAll(sql: string): Promise<{ getRows(): unknown[][] }> },
) {
  return (await connection.runAndReadAll("SELECT key FROM llm_calls ORDER BY key")).getRows()
    .map((r) => String(r[0]));
}

/**
 * Runs `fn` on a new workspace database with a journal path beside it, then
 * closes the database and removes its folder.
 */
async function withJournaledDb(
  fn: (t: { journal: string; connection: DuckDBConnection }) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const db = await DuckDBInstance.create(join(dir, "w.duckdb"));
  const connection = await db.connect();
  try {
    await fn({ journal: join(dir, "llm_journal.jsonl"), connection });
  } finally {
    connection.closeSync();
    db.closeSync();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a journaled put is on disk before it is committed, and the journal empties after", async () => {
  const dir = await Deno.makeTempDir();
  const journal = join(dir, "llm_journal.jsonl");
  const db = await DuckDBInstance.create(join(dir, "w.duckdb"));
  const connection = await db.connect();
  try {
    const cache = await CallCache.open(connection, { journal });
    const puts = [cache.put(call("a")), cache.put(call("b"))];
    // The answers of one turn are written together: not yet when put returns ...
    assert.equal(journalText(journal), "");
    // ... but both are in the journal, in one write, when their puts resolve, before
    // any commit.
    await Promise.all(puts);
    const lines = journalText(journal).trim().split("\n");
    assert.deepEqual(lines.map((l) => JSON.parse(l).key), ["a", "b"]);
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
    assert.equal(journalFiles(journal).length, 1);
    assert.deepEqual(
      journalText(journal).trim().split("\n").map((l) => JSON.parse(l).key),
      ["d"],
    );
    // A killed process: the connection goes without a flush; d is only in the journal.
    cache.release();
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
  // A writer's segment 2 (being committed at the kill) and its open file.
  await Deno.writeTextFile(`${journal}.w1.2`, JSON.stringify(call("a")) + "\n");
  await Deno.writeTextFile(
    `${journal}.w1`,
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
    // New answers go to a file of its own and are committed on flush.
    await cache.put(call("c"));
    await cache.flush();
    assert.deepEqual(journalFiles(journal), []);
    assert.deepEqual(await rows(connection), ["a", "b", "c"]);
  } finally {
    connection.closeSync();
    db.closeSync();
  }
});

Deno.test("two caches on one journal keep their own files: a commit of one never drops the other's calls", async () => {
  const dir = await Deno.makeTempDir();
  const journal = join(dir, "llm_journal.jsonl");
  const db = await DuckDBInstance.create(join(dir, "w.duckdb"));
  let connection = await db.connect();
  try {
    const judge = await CallCache.open(connection, { journal });
    const generator = await CallCache.open(connection, { journal });
    await judge.put(call("j1"));
    await generator.put(call("g1"));
    await judge.flush();
    assert.deepEqual(await rows(connection), ["j1"]);
    // The generator's answer is still on disk, in its own file.
    assert.deepEqual(journalText(journal).trim().split("\n").map((l) => JSON.parse(l).key), [
      "g1",
    ]);
    // Opening a third cache meanwhile leaves the live generator's file alone.
    await CallCache.open(connection, { journal });
    assert.equal(journalFiles(journal).length, 1);
    generator.release();
    judge.release();
    connection.closeSync();
    connection = await db.connect();
    const next = await CallCache.open(connection, { journal });
    assert.equal(next.recovered, 1);
    assert.deepEqual(await rows(connection), ["g1", "j1"]);
  } finally {
    connection.closeSync();
    db.closeSync();
  }
});

Deno.test("log-probabilities survive the journal: a kill before the commit keeps them for the next open", async () => {
  const logprobs = {
    topK: 3,
    tokens: [{ token: "A", logprob: -0.2, top: [{ token: "A", logprob: -0.2 }] }],
  };
  await withJournaledDb(async ({ journal, connection }) => {
    const cache = await CallCache.open(connection, { journal, commitMs: 60_000 });
    await cache.put({ ...call("lp"), logprobs });
    assert.deepEqual((await cache.get("lp"))?.logprobs, logprobs);
    // As after a kill: nothing committed, the journal stays.
    cache.release();
    assert.deepEqual(await rows(connection), []);
    const reopened = await CallCache.open(connection, { journal });
    assert.equal(reopened.recovered, 1);
    assert.deepEqual((await reopened.get("lp"))?.logprobs, logprobs);
    await reopened.flush();
  });
});

Deno.test("a commit reads its calls from the journal; a group the files do not hold exactly is appended", async () => {
  await withJournaledDb(async ({ journal, connection }) => {
    const cache = await CallCache.open(connection, { journal });
    const read = async (key: string) => {
      const reader = await connection.runAndReadAll(
        "SELECT messages::VARCHAR, response, status FROM llm_calls WHERE key = $1",
        [key],
      );
      return reader.getRows()[0]?.map(String);
    };
    await Promise.all(["a", "b", "c"].map((k) => cache.put(call(k))));
    await cache.flush();
    // New keys, no log-probabilities: inserted straight from the file.
    assert.deepEqual([cache.commits, cache.journalCommits, cache.journalInserts], [1, 1, 1]);
    assert.deepEqual(await read("b"), ['[{"role":"user","content":"q b"}]', "4", "ok"]);
    // A stored key answered again that no lookup found (a refreshed call): the straight
    // insert fails on the key, and the file is read again through the stage.
    await cache.put({ ...call("b"), response: "6" });
    await cache.flush();
    assert.deepEqual([cache.commits, cache.journalCommits, cache.journalInserts], [2, 2, 1]);
    assert.equal(cache.journalRereads, 1);
    assert.equal((await read("b"))?.[1], "6");
    // One key put twice in a group (a retried call): two lines for one call, so the
    // group is appended from memory, the later put winning.
    await Promise.all([cache.put(call("d")), cache.put({ ...call("d"), response: "5" })]);
    await cache.flush();
    assert.deepEqual([cache.commits, cache.journalCommits], [3, 2]);
    assert.equal((await read("d"))?.[1], "5");
    // A lone surrogate DuckDB's JSON reader refuses: appended, as the driver converts it.
    await cache.put({ ...call("e"), response: "x\ud800y" });
    await cache.flush();
    assert.deepEqual([cache.commits, cache.journalCommits, cache.journalInserts], [4, 2, 1]);
    assert.equal((await read("e"))?.[1], "x\ufffdy");
    assert.deepEqual(await rows(connection), ["a", "b", "c", "d", "e"]);
    assert.deepEqual(journalFiles(journal), []);
  });
});

Deno.test("a call a lookup found failed and asked again goes through the stage, its file read once", async () => {
  await withJournaledDb(async ({ journal, connection }) => {
    const first = await CallCache.open(connection, { journal });
    const failed = { ...call("f"), response: "", status: "failed" as const, error: "HTTP 500" };
    await Promise.all([first.put(failed), first.put({ ...call("u"), status: "unparsed" })]);
    await first.put(call("ok"));
    await first.flush();
    assert.deepEqual([first.journalInserts, first.journalRereads], [1, 0]);
    // The next run looks the calls up, as the client does, and asks the failed and
    // unparsed ones again, with new calls beside them in the same group.
    const cache = await CallCache.open(connection, { journal });
    const found = await cache.getMany(["f", "u", "ok", "new1"], { messages: false });
    assert.deepEqual([...found.keys()].sort(), ["f", "ok", "u"]);
    await Promise.all([
      cache.put({ ...call("f"), response: "3" }),
      cache.put({ ...call("u"), response: "2" }),
      cache.put(call("new1")),
      cache.put(call("new2")),
    ]);
    await cache.flush();
    assert.deepEqual(
      [cache.commits, cache.journalCommits, cache.journalInserts, cache.journalRereads],
      [1, 1, 0, 0],
    );
    const stored = (await connection.runAndReadAll(
      "SELECT key, response, status, error FROM llm_calls ORDER BY key",
    )).getRows().map((r) => r.map((v) => v === null ? null : String(v)));
    assert.deepEqual(stored, [
      ["f", "3", "ok", null],
      ["new1", "4", "ok", null],
      ["new2", "4", "ok", null],
      ["ok", "4", "ok", null],
      ["u", "2", "ok", null],
    ]);
    // Once replaced, the keys are no longer taken as stored-to-replace: a group of
    // new keys after them is inserted straight again.
    await Promise.all([cache.put(call("new3")), cache.put(call("new4"))]);
    await cache.flush();
    assert.deepEqual([cache.journalInserts, cache.journalRereads], [1, 0]);
    assert.deepEqual(journalFiles(journal), []);
  });
});
