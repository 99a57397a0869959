import assert from "node:assert/strict";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import {
  addLlmCacheHits,
  createLlmCacheTables,
  type LlmCallRow,
  type LlmCallStage,
  newLlmCallStage,
  readLlmCalls,
  readLlmCallStats,
  writeLlmCalls,
  writeLlmCallsFromJournal,
} from "./llm_cache.ts";

const row = (key: string, extra: Partial<LlmCallRow> = {}): LlmCallRow => ({
  key,
  model: "m",
  endpoint: "http://h/v1 chat",
  template: "t@1",
  params: { temperature: 0 },
  messages: [{ role: "user", content: key }],
  response: `answer ${key}`,
  usage: { promptTokens: 3, completionTokens: 2 },
  status: "ok",
  error: undefined,
  attempts: 1,
  latencyMs: 5,
  ...extra,
});

/** A failed call: no template, an error with quotes and a newline, usage unknown. */
const failedRow = (key: string): LlmCallRow =>
  row(key, {
    template: undefined,
    status: "failed",
    error: 'HTTP 500: "quoted"\nsecond line',
    usage: { promptTokens: null, completionTokens: null },
  });

/** A call whose parameters, messages and answer hold unicode, quotes and control characters. */
const unicodeRow = (key: string, extra: Partial<LlmCallRow> = {}): LlmCallRow =>
  row(key, {
    params: { temperature: 0.7, stop: ["\n\n", "END"], seed: 12345678901 },
    messages: [
      { role: "system", content: "Réponds en français, s'il te plaît — 日本語も 🙂" },
      { role: "user", content: "tab\tand \\ backslash and \u0001 control" },
    ],
    response: "ünïcödé 🙂",
    ...extra,
  });

/** Writes calls as a journal file, one JSON line each; returns its path. */
async function writeJournal(path: string, calls: readonly LlmCallRow[]): Promise<string> {
  await Deno.writeTextFile(path, calls.map((c) => JSON.stringify(c)).join("\n") + "\n");
  return path;
}

/**
 * Asserts that the calls stored in `con` equal the calls themselves and the rows
 * the appender writes of them into a second database, field by field.
 */
async function assertAsAppended(con: DuckDBConnection, calls: readonly LlmCallRow[]) {
  const keys = calls.map((c) => c.key);
  await withCacheTables(async (con2, stage2) => {
    await writeLlmCalls(con2, calls, stage2);
    const stored = await readLlmCalls(con, keys);
    const appended = await readLlmCalls(con2, keys);
    for (const c of calls) {
      assert.deepEqual(stored.get(c.key), appended.get(c.key));
      assert.deepEqual(stored.get(c.key), c);
    }
  });
}

/**
 * Runs `fn` on a fresh DuckDB database (in memory, or at `path`) with the cache
 * tables and a staging table, then closes it.
 */
async function withCacheTables(
  fn: (con: DuckDBConnection, stage: LlmCallStage) => Promise<void>,
  path = ":memory:",
): Promise<void> {
  const db = await DuckDBInstance.create(path);
  const con = await db.connect();
  try {
    await createLlmCacheTables(con);
    await fn(con, newLlmCallStage());
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

Deno.test("llm cache store: rows and log-probabilities round-trip; a replace without them drops them; stats with hits", async () => {
  await withCacheTables(async (con, stage) => {
    const logprobs = {
      topK: 2,
      tokens: [{ token: "B", logprob: -0.5, top: [{ token: "B", logprob: -0.5 }] }],
    };
    await writeLlmCalls(con, [
      row("a", { logprobs }),
      row("b", {
        template: undefined,
        status: "failed",
        error: "HTTP 500",
        usage: {
          promptTokens: null,
          completionTokens: null,
        },
      }),
    ], stage);
    assert.equal(stage.created, true);
    const got = await readLlmCalls(con, ["a", "b", "zz"]);
    assert.deepEqual([...got.keys()].sort(), ["a", "b"]);
    assert.deepEqual(got.get("a"), row("a", { logprobs }));
    assert.deepEqual(
      got.get("b"),
      row("b", {
        template: undefined,
        status: "failed",
        error: "HTTP 500",
        usage: { promptTokens: null, completionTokens: null },
      }),
    );
    // Replaced without log-probabilities: the stale ones go.
    await writeLlmCalls(con, [row("a", { response: "new" })], stage);
    const again = (await readLlmCalls(con, ["a"])).get("a")!;
    assert.deepEqual([again.response, again.logprobs], ["new", undefined]);
    await addLlmCacheHits(con, "m", "t@1", 3);
    await addLlmCacheHits(con, "m", "t@1", 2);
    const stats = await readLlmCallStats(con);
    assert.deepEqual(stats.map((s) => [s.template, s.status, s.calls, s.promptTokens, s.hits]), [
      ["", "failed", 1, 0, 0],
      ["t@1", "ok", 1, 3, 5],
    ]);
  });
});

Deno.test("llm cache store: a group larger than one appender slice is written whole, replaces stamped now; another column order works", async () => {
  await withCacheTables(async (con, stage) => {
    await writeLlmCalls(con, [row("a"), row("b")], stage);
    // 600 rows: three slices of the stage's appender, one key replaced.
    const many = Array.from({ length: 600 }, (_, i) => row(`k${String(i).padStart(3, "0")}`));
    await writeLlmCalls(con, [row("b", { response: "replaced" }), ...many], stage);
    const counts = (await con.runAndReadAll(
      `SELECT count(*)::INTEGER, count(DISTINCT key)::INTEGER,
         bool_and(abs(epoch(now()::TIMESTAMP) - epoch(created_at)) < 60) FROM llm_calls`,
    )).getRows();
    assert.deepEqual(counts, [[602, 602, true]]);
    const got = await readLlmCalls(con, ["a", "b", "k000", "k599"]);
    assert.deepEqual(
      ["a", "b", "k000", "k599"].map((k) => got.get(k)?.response),
      ["answer a", "replaced", "answer k000", "answer k599"],
    );
    assert.deepEqual(got.get("k599"), row("k599"));
    // A table whose columns are in another order (as a migration may leave it).
    await con.run("DROP TABLE llm_calls");
    await con.run(
      `CREATE TABLE llm_calls (created_at TIMESTAMP, key VARCHAR PRIMARY KEY, model VARCHAR,
         endpoint VARCHAR, template VARCHAR, params JSON, messages JSON, response VARCHAR,
         usage JSON, status VARCHAR, error VARCHAR, attempts INTEGER, latency_ms DOUBLE)`,
    );
    await writeLlmCalls(con, [row("d")], newLlmCallStage());
    assert.deepEqual((await readLlmCalls(con, ["d"])).get("d"), row("d"));
  });
});

Deno.test("llm cache store: calls read from journal files equal calls appended; a file that does not hold them writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await withCacheTables(async (con) => {
      const logprobs = {
        topK: 2,
        tokens: [{ token: "B", logprob: -0.5, top: [{ token: "B", logprob: -0.5 }] }],
      };
      const calls = [
        row("a", { logprobs }),
        failedRow("b"),
        unicodeRow("c", { logprobs: { topK: 3, tokens: null } }),
      ];
      // Two files, as after a failed commit: the calls of both are written together.
      const first = await writeJournal(`${dir}/journal.a.1`, calls.slice(0, 2));
      const second = await writeJournal(`${dir}/it's.b.2`, calls.slice(2));
      // Calls with log-probabilities go through the stage: after the straight insert
      // declined them (the files read twice), or at once when the caller says so.
      assert.equal(
        await writeLlmCallsFromJournal(con, [first, second], 3, newLlmCallStage()),
        "reread",
      );
      assert.equal(
        await writeLlmCallsFromJournal(con, [first, second], 3, newLlmCallStage(), {
          insert: false,
        }),
        "replaced",
      );
      assert.equal((await readLlmCalls(con, ["a", "b", "c"])).size, 3);
      // The same calls through the appender, into a second database: identical rows.
      await assertAsAppended(con, calls);
      // A replace from the journal drops stale log-probabilities, as the appender's does.
      const replaced = await writeJournal(`${dir}/journal.a.3`, [row("a", { response: "new" })]);
      assert.equal(
        await writeLlmCallsFromJournal(con, [replaced], 1, newLlmCallStage()),
        "reread",
      );
      const again = (await readLlmCalls(con, ["a"])).get("a")!;
      assert.deepEqual([again.response, again.logprobs], ["new", undefined]);
      const count = async () =>
        Number((await con.runAndReadAll("SELECT count(*) FROM llm_calls")).getRows()[0][0]);
      // Files that do not hold exactly the calls: nothing is written, the caller appends.
      const dup = await writeJournal(`${dir}/journal.d.1`, [row("d"), row("d", { response: "2" })]);
      assert.equal(await writeLlmCallsFromJournal(con, [dup], 2, newLlmCallStage()), false);
      assert.equal(await writeLlmCallsFromJournal(con, [dup], 1, newLlmCallStage()), false);
      const torn = `${dir}/journal.e.1`;
      await Deno.writeTextFile(
        torn,
        JSON.stringify(row("e")) + "\n" + JSON.stringify(row("f")).slice(0, 30),
      );
      assert.equal(await writeLlmCallsFromJournal(con, [torn], 2, newLlmCallStage()), false);
      assert.equal(
        await writeLlmCallsFromJournal(con, [`${dir}/missing`], 1, newLlmCallStage()),
        false,
      );
      assert.equal(await writeLlmCallsFromJournal(con, [], 0, newLlmCallStage()), false);
      assert.equal(await count(), 3);
      assert.equal((await readLlmCalls(con, ["d", "e"])).size, 0);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("llm cache store: a group of new keys without log-probabilities is inserted straight from its journal files", async () => {
  const dir = await Deno.makeTempDir();
  const write = (name: string, calls: LlmCallRow[]) => writeJournal(`${dir}/${name}`, calls);
  try {
    await withCacheTables(async (con) => {
      const calls = [row("a"), failedRow("b"), unicodeRow("c")];
      const files = [await write("j.x.1", calls.slice(0, 2)), await write("j.x.2", calls.slice(2))];
      assert.equal(await writeLlmCallsFromJournal(con, files, 3, newLlmCallStage()), "inserted");
      // The same rows as the appender writes, field by field.
      await assertAsAppended(con, calls);
      const count = async () =>
        Number((await con.runAndReadAll("SELECT count(*) FROM llm_calls")).getRows()[0][0]);
      // One line fewer than the group, or a key twice: nothing is written, by either path.
      const short = await write("j.y.1", [row("d")]);
      assert.equal(await writeLlmCallsFromJournal(con, [short], 2, newLlmCallStage()), false);
      const twice = await write("j.y.2", [row("e"), row("e", { response: "2" })]);
      assert.equal(await writeLlmCallsFromJournal(con, [twice], 2, newLlmCallStage()), false);
      assert.equal(await count(), 3);
      // A stored key among new ones: the insert fails on the key and writes nothing,
      // and the whole group replaces through the stage, its file read again.
      const mixed = await write("j.z.1", [row("a", { response: "again" }), row("f")]);
      assert.equal(await writeLlmCallsFromJournal(con, [mixed], 2, newLlmCallStage()), "reread");
      assert.equal((await readLlmCalls(con, ["a"])).get("a")?.response, "again");
      assert.equal(await count(), 4);
      // Asked not to try the insert: the stage, even for new keys.
      const fresh = await write("j.z.2", [row("g")]);
      assert.equal(
        await writeLlmCallsFromJournal(con, [fresh], 1, newLlmCallStage(), { insert: false }),
        "replaced",
      );
      assert.equal(await count(), 5);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("llm cache store: the stage's memory does not grow with the groups written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await withCacheTables(async (con, stage) => {
      // Memory DuckDB holds for temporary tables and long strings, in MB.
      const held = async () => {
        const reader = await con.runAndReadAll(
          `SELECT coalesce(sum(memory_usage_bytes), 0)::DOUBLE FROM duckdb_memory()
           WHERE tag IN ('IN_MEMORY_TABLE', 'OVERFLOW_STRINGS')`,
        );
        return Number(reader.getRows()[0][0]) / 1e6;
      };
      const prompt = "x".repeat(5000);
      const journal = `${dir}/journal`;
      // 40 groups of 200 calls with 5,000-character prompts: 40 MB of prompts in all,
      // half through the appender and half read from journal files, all through the stage.
      let after20 = 0;
      for (let g = 0; g < 40; g++) {
        if (g === 20) after20 = await held();
        const calls = Array.from(
          { length: 200 },
          (_, i) =>
            row(`g${g}-${i}`, { messages: [{ role: "user", content: `${prompt}${g}-${i}` }] }),
        );
        if (g % 2) await writeLlmCalls(con, calls, stage);
        else {
          await writeJournal(journal, calls);
          assert.equal(
            await writeLlmCallsFromJournal(con, [journal], 200, stage, { insert: false }),
            "replaced",
          );
        }
      }
      assert.equal(
        Number((await con.runAndReadAll("SELECT count(*) FROM llm_calls")).getRows()[0][0]),
        8000,
      );
      // The stage is made anew for each group, so what DuckDB holds stays flat (about 10
      // MB here, the table's own rows before a checkpoint); emptied by DELETE, the stage
      // kept every group's strings: 33 MB after 20 groups and 57 MB after 40.
      const mb = await held();
      assert.ok(mb < 20, `DuckDB holds ${mb.toFixed(1)} MB after 40 groups`);
      assert.ok(
        mb < after20 + 4,
        `${after20.toFixed(1)} MB after 20 groups, ${mb.toFixed(1)} after 40`,
      );
    }, `${dir}/w.duckdb`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("llm cache store: lookups over several slices find each key with its own log-probabilities", async () => {
  await withCacheTables(async (con, stage) => {
    const lp = (i: number) => ({
      topK: 1,
      tokens: [{ token: `t${i}`, logprob: -i - 0.5, top: [] }],
    });
    // 12,000 calls (more than one lookup of 10,000 keys); every seventh one with
    // log-probabilities; keys with quotes, backslashes, commas, brackets and non-ASCII.
    const odd = ['"', "\\", "'", ",", "[", "]", "é", "\u{1F600}", " ", "\n"];
    const key = (i: number) => `k${odd[i % odd.length]}${i}`;
    const rows = Array.from(
      { length: 12_000 },
      (_, i) => row(key(i), i % 7 === 0 ? { logprobs: lp(i) } : {}),
    );
    // Without any log-probabilities stored, none are read.
    await writeLlmCalls(con, rows.filter((r) => !r.logprobs), stage);
    const plain = await readLlmCalls(con, [key(1), key(2)]);
    assert.deepEqual([...plain.values()].map((r) => r.logprobs), [undefined, undefined]);
    assert.deepEqual(plain.get(key(1))?.messages, [{ role: "user", content: key(1) }]);
    await writeLlmCalls(con, rows.filter((r) => r.logprobs), stage);
    // Asked keys span two lookups, with absent ones among them (a prefix of a stored key too).
    const asked = ["absent-1", ...rows.map((r) => r.key).reverse(), "k", 'k"'];
    const got = await readLlmCalls(con, asked, { messages: false });
    assert.equal(got.size, 12_000);
    for (let i = 0; i < 12_000; i++) {
      const call = got.get(key(i))!;
      assert.deepEqual(call.logprobs, i % 7 === 0 ? lp(i) : undefined, key(i));
      assert.equal(call.messages, null);
      assert.equal(call.response, `answer ${key(i)}`);
    }
  });
});
