import assert from "node:assert/strict";
import { join } from "node:path";
import { openWorkspace } from "./open_workspace.ts";

Deno.test("insert and typed readers round-trip camelCase records, leaving nulls out", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.insert("passages", [
      { passageId: "t1:0#1", topicId: "t1", docId: "t1:0", text: "b" },
      { passageId: "t1:0#0", topicId: "t1", docId: "t1:0", text: "a", tokens: 3 },
    ]);
    assert.deepEqual(await ws.passages("t1"), [
      { passageId: "t1:0#0", topicId: "t1", docId: "t1:0", text: "a", tokens: 3 },
      { passageId: "t1:0#1", topicId: "t1", docId: "t1:0", text: "b" },
    ]);
    await ws.insert("generations", [
      { run: "r", topicId: "t1", text: "x", contextIds: ["t1:0#0", "t1:0#1"], tokens: 7 },
    ]);
    assert.deepEqual(await ws.generations({ run: "r" }), [
      { run: "r", topicId: "t1", text: "x", contextIds: ["t1:0#0", "t1:0#1"], tokens: 7 },
    ]);
    await ws.insert("llm_calls", [{
      key: "k",
      params: { temperature: 0 },
      messages: [{ role: "user", content: "hi" }],
      createdAt: new Date("2026-01-02T03:04:05Z"),
      attempts: 1,
    }]);
    const [call] = await ws.query<Record<string, unknown>>(
      "SELECT key, params, messages, created_at, attempts FROM llm_calls",
    );
    assert.deepEqual(call.params, { temperature: 0 });
    assert.deepEqual(call.messages, [{ role: "user", content: "hi" }]);
    assert.equal((call.createdAt as Date).toISOString(), "2026-01-02T03:04:05.000Z");
    const [n] = await ws.query<{ n: unknown }>("SELECT count(*) AS n FROM passages");
    assert.equal(n.n, 2); // BIGINT comes back as a number
  } finally {
    ws.close();
  }
});

Deno.test("insert rejects unknown fields, missing keys, wrong types and duplicate keys", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await assert.rejects(
      () => ws.insert("topics", [{ topicId: "t", request: "r", titel: "x" }]),
      /record 0 in table "topics": unknown field "titel"/,
    );
    await assert.rejects(
      () => ws.insert("topics", [{ request: "r" }]),
      /key field "topicId" is missing/,
    );
    await assert.rejects(
      () =>
        ws.insert("ratings", [{
          topicId: "t",
          itemId: "i",
          questionId: "q",
          rating: "5",
          judge: "h",
        }]),
      /field "rating" \(INTEGER\) got "5"/,
    );
    await assert.rejects(() => ws.insert("nope", []), /Unknown table "nope"/);
    await ws.insert("topics", [{ topicId: "t", request: "r" }]);
    await assert.rejects(() => ws.insert("topics", [{ topicId: "t", request: "again" }]));
    assert.deepEqual(await ws.topics(), [{ topicId: "t", request: "r" }]);
  } finally {
    ws.close();
  }
});

Deno.test("upsert replaces by primary key (last wins) and replaces whole runs", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("ratings", [
      { topicId: "t", itemId: "t:0#0", questionId: "t#q1", rating: 1, judge: "h" },
      { topicId: "t", itemId: "t:0#0", questionId: "t#q1", rating: 4, judge: "h" },
      { topicId: "t", itemId: "t:0#0", questionId: "t#q2", rating: 2, judge: "h" },
    ]);
    await ws.upsert("ratings", [{
      topicId: "t",
      itemId: "t:0#0",
      questionId: "t#q2",
      rating: 5,
      judge: "h",
    }]);
    assert.deepEqual((await ws.ratings({ topicId: "t" })).map((r) => [r.questionId, r.rating]), [
      ["t#q1", 4],
      ["t#q2", 5],
    ]);
    const row = (run: string, docId: string, rank: number) => ({
      run,
      topicId: "t",
      docId,
      rank,
      score: 10 - rank,
    });
    await ws.upsert("runs", [row("a", "d1", 1), row("a", "d2", 2), row("b", "d1", 1)]);
    await ws.upsert("runs", [row("a", "d3", 1)]);
    assert.deepEqual((await ws.runRows()).map((r) => `${r.run}:${r.docId}`), ["a:d3", "b:d1"]);
  } finally {
    ws.close();
  }
});

Deno.test("transaction rolls back on error", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await assert.rejects(() =>
      ws.transaction(async () => {
        await ws.upsert("topics", [{ topicId: "t", request: "r" }]);
        throw new Error("boom");
      }), /boom/);
    assert.equal(await ws.count("topics"), 0);
  } finally {
    ws.close();
  }
});

Deno.test("exportTable writes parquet, csv, jsonl and TREC files", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await ws.insert("runs", [
      { run: "bm25", topicId: "t", docId: "d2", rank: 2, score: 1.5 },
      { run: "bm25", topicId: "t", docId: "d1", rank: 1, score: 2.25 },
    ]);
    await ws.insert("qrels", [{ name: "pr", topicId: "t", subtopic: "0", docId: "d1", grade: 3 }]);
    assert.equal(await ws.exportTable("runs", join(dir, "r.run"), "trec"), 2);
    assert.equal(
      await Deno.readTextFile(join(dir, "r.run")),
      "t Q0 d1 1 2.25 bm25\nt Q0 d2 2 1.5 bm25\n",
    );
    await ws.exportTable("qrels", join(dir, "q.txt"), "trec");
    assert.equal(await Deno.readTextFile(join(dir, "q.txt")), "t 0 d1 3\n");
    await ws.exportTable("qrels", join(dir, "q.jsonl"), "jsonl");
    assert.deepEqual(JSON.parse(await Deno.readTextFile(join(dir, "q.jsonl"))), {
      name: "pr",
      topicId: "t",
      subtopic: "0",
      docId: "d1",
      grade: 3,
    });
    await ws.exportTable("runs", join(dir, "r.csv"), "csv");
    assert.equal(
      (await Deno.readTextFile(join(dir, "r.csv"))).split("\n")[0],
      "run,topicId,docId,rank,score",
    );
    assert.equal(await ws.exportTable("runs", join(dir, "r.parquet"), "parquet"), 2);
    const back = await ws.query<{ docId: string }>(
      `SELECT "docId" FROM read_parquet('${join(dir, "r.parquet")}') ORDER BY "docId"`,
    );
    assert.deepEqual(back.map((r) => r.docId), ["d1", "d2"]);
    assert.rejects(() => ws.exportTable("topics", join(dir, "x"), "trec"), /only runs and qrels/);
  } finally {
    ws.close();
  }
});

Deno.test("an empty list column is stored as an empty list, not null", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await ws.insert("generations", [
      { run: "direct", topicId: "t1", text: "x", contextIds: [] },
      { run: "rag", topicId: "t1", text: "y", contextIds: ["t1:0#0", "t1:0#1"] },
    ]);
    const rows = await ws.generations();
    assert.deepEqual(rows.map((g) => g.contextIds), [[], ["t1:0#0", "t1:0#1"]]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ratings and passages read in natural order: passages by j, questions by ordinal", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const passages = [10, 2, 1].map((j) => ({
      passageId: `t:0#${j}`,
      topicId: "t",
      docId: "t:0",
      text: `p${j}`,
    }));
    await ws.insert("passages", passages);
    await ws.insert(
      "questions",
      [10, 2, 1].map((n) => ({
        topicId: "t",
        questionId: `t#q${n}`,
        kind: "subquestion",
        ordinal: n,
        text: `q${n}`,
      })),
    );
    const ratings = [];
    for (const item of ["t:report", "t:0#10", "t:0#2"]) {
      for (const n of [10, 2, 1]) {
        ratings.push({ topicId: "t", itemId: item, questionId: `t#q${n}`, rating: 1, judge: "h" });
      }
    }
    await ws.insert("ratings", ratings);
    assert.deepEqual((await ws.passages("t")).map((p) => p.passageId), [
      "t:0#1",
      "t:0#2",
      "t:0#10",
    ]);
    const read = (await ws.ratings({ topicId: "t" })).map((r) => `${r.itemId} ${r.questionId}`);
    // String order would put "t:0#10" before "t:0#2" and "t#q10" before "t#q2".
    assert.deepEqual(read, [
      "t:0#2 t#q1",
      "t:0#2 t#q2",
      "t:0#2 t#q10",
      "t:0#10 t#q1",
      "t:0#10 t#q2",
      "t:0#10 t#q10",
      "t:report t#q1",
      "t:report t#q2",
      "t:report t#q10",
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a fork has transactions of its own, sees committed rows, and closes only its connection", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const fork = await ws.fork();
    assert.equal(fork.parent, ws);
    assert.equal(fork.dir, ws.dir);
    const insert = (w: typeof ws, key: string) =>
      w.exec("INSERT INTO memo (kind, key, fingerprint) VALUES ('t', $1, 'x')", [key]);
    const count = async (w: typeof ws) =>
      (await w.query<{ n: number }>("SELECT count(*) AS n FROM memo WHERE kind = 't'"))[0].n;
    // Both in a transaction at once: each sees its own row only until it commits.
    await ws.transaction(async () => {
      await insert(ws, "main");
      await fork.transaction(async () => {
        await insert(fork, "fork");
        assert.equal(await count(fork), 1);
        assert.equal(await count(ws), 1);
      });
      assert.equal(await count(ws), 1); // snapshot isolation: begun before the fork committed
    });
    assert.equal(await count(ws), 2);
    // A rolled-back fork transaction leaves nothing.
    await assert.rejects(
      () =>
        fork.transaction(async () => {
          await insert(fork, "lost");
          throw new Error("undo");
        }),
      Error,
      "undo",
    );
    assert.equal(await count(ws), 2);
    // A fork of the fork belongs to the workspace itself.
    const second = await fork.fork();
    assert.equal(second.parent, ws);
    second.close();
    fork.close();
    assert.equal(await count(ws), 2); // the workspace is still open
    await assert.rejects(() => fork.fork(), Error, "it is closed");
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
