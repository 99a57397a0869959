import assert from "node:assert/strict";
import { join } from "node:path";
import { InputError } from "@lib/formats/mod.ts";
import { importCrux } from "./import_crux.ts";
import { importDuc } from "./import_duc.ts";
import { importMultiNews } from "./import_multi_news.ts";
import { importSample } from "./import_sample.ts";
import { importQrels, importRun } from "./import_trec.ts";
import { openWorkspace } from "./open_workspace.ts";

const SAMPLE = new URL("./testdata/sample/", import.meta.url).pathname;
const FORMATS = new URL("../formats/testdata/", import.meta.url).pathname;

Deno.test("importSample maps the sample layout and is idempotent", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const expected = { topics: 2, documents: 3, passages: 4, questions: 3, ratings: 10 };
    assert.deepEqual(await importSample(ws, SAMPLE), expected);
    assert.deepEqual(await importSample(ws, SAMPLE), expected);
    for (const [table, n] of Object.entries(expected)) {
      assert.equal(await ws.count(table), n, table);
    }
    assert.deepEqual((await ws.topics())[0], {
      topicId: "sample-01",
      request: "Write a report on the reopening of the Lorvath harbor bridge.",
      title: "Lorvath bridge",
      summary: "The Lorvath bridge reopened after repairs.",
      source: "sample",
    });
    assert.deepEqual((await ws.passages("sample-01"))[2], {
      passageId: "sample-01:1#2",
      topicId: "sample-01",
      docId: "sample-01:1",
      text: "Ferry operators reported fewer passengers.",
    });
    assert.deepEqual((await ws.questions({ topicId: "sample-01" }))[1], {
      topicId: "sample-01",
      questionId: "sample-01#q2",
      kind: "subquestion",
      ordinal: 2,
      text: "What did engineers replace?",
    });
    const report = await ws.ratings({ itemId: "sample-01:report" });
    assert.deepEqual(report.map((r) => [r.questionId, r.rating, r.judge]), [[
      "sample-01#q1",
      5,
      "human",
    ], ["sample-01#q2", 3, "human"]]);
  } finally {
    ws.close();
  }
});

Deno.test("importSample refuses rating lists that do not match the question count", async () => {
  const dir = await Deno.makeTempDir();
  for (const f of Deno.readDirSync(SAMPLE)) {
    await Deno.copyFile(join(SAMPLE, f.name), join(dir, f.name));
  }
  await Deno.writeTextFile(
    join(dir, "judgments.jsonl"),
    '{"id": "sample-02", "docid": "sample-02:0#0", "rating": [4, 1]}\n',
  );
  const ws = await openWorkspace(join(dir, "ws"));
  try {
    await assert.rejects(() => importSample(ws, dir), (e: unknown) =>
      e instanceof InputError &&
      e.message ===
        `${
          join(dir, "judgments.jsonl")
        }:1: rating: expected 1 ratings (one per sub-question of topic "sample-02"), found 2`);
    assert.equal(await ws.count("topics"), 0);
  } finally {
    ws.close();
  }
});

Deno.test("importCrux loads any subset with topic rewriting, checking counts against the workspace", async () => {
  const crux = join(FORMATS, "crux");
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const qrels = join(await Deno.makeTempDir(), "duc04_qrels_pr.txt");
    await Deno.writeTextFile(
      qrels,
      "duc04-testb-1 0 duc04-testb-1:0#0 3\nduc04-testb-1 0 duc04-testb-1:1#1 2\n",
    );
    const rewrite = ["duc04-testb-=duc04-test-"];
    const counts = await importCrux(ws, {
      corpus: join(crux, "corpus.jsonl"),
      subquestions: join(crux, "subquestions.json"),
      qrels: [qrels],
      rewrite,
    });
    assert.deepEqual(counts, { questions: 2, passages: 2, qrels: 2 });
    assert.deepEqual((await ws.passages()).map((p) => [p.passageId, p.docId]), [
      ["duc04-test-1:0#0", "duc04-test-1:0"],
      ["duc04-test-1:1#1", "duc04-test-1:1"],
    ]);
    assert.deepEqual((await ws.qrels("duc04_qrels_pr")).map((q) => [q.docId, q.grade]), [
      ["duc04-test-1:0#0", 3],
      ["duc04-test-1:1#1", 2],
    ]);
    // Judgments alone: the question count (2) comes from the workspace.
    assert.deepEqual(await importCrux(ws, { judgments: join(crux, "judgments.jsonl"), rewrite }), {
      ratings: 6,
    });
    const ratings = await ws.ratings({ itemId: "duc04-test-1:1#1" });
    assert.deepEqual(ratings.map((r) => [r.questionId, r.rating, r.judge]), [
      ["duc04-test-1#q1", -1, "import:judgments.jsonl"],
      ["duc04-test-1#q2", 4, "import:judgments.jsonl"],
    ]);
    await ws.exec("DELETE FROM questions WHERE question_id = 'duc04-test-1#q2'");
    await assert.rejects(
      () => importCrux(ws, { judgments: join(crux, "judgments.jsonl"), rewrite }),
      /expected 1 ratings \(one per sub-question of topic "duc04-test-1"\), found 2/,
    );
  } finally {
    ws.close();
  }
});

Deno.test("importMultiNews builds CRUX-style topic ids and documents", async () => {
  const mn = join(FORMATS, "multi_news");
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const counts = await importMultiNews(ws, {
      src: join(mn, "test.src"),
      tgt: join(mn, "test.tgt"),
    });
    assert.deepEqual(counts, { topics: 2, documents: 4 });
    assert.deepEqual((await ws.topics()).map((t) => [t.topicId, t.summary, t.source]), [
      ["multi_news-test-0", "– A comet was seen.", "multi_news"],
      ["multi_news-test-1", "– Two stories.", "multi_news"],
    ]);
    assert.deepEqual(
      (await ws.documents("multi_news-test-1")).map((d) => [d.docId, d.docIndex, d.text]),
      [
        ["multi_news-test-1:0", 0, "Only one story here"],
        ["multi_news-test-1:1", 1, "Another story"],
      ],
    );
    assert.deepEqual(
      await importMultiNews(ws, { jsonl: join(mn, "test.jsonl") }, {
        split: "validation",
        limit: 1,
      }),
      {
        topics: 1,
        documents: 2,
      },
    );
    await assert.rejects(
      () => importMultiNews(ws, { src: join(mn, "test.src") }),
      /exactly one of jsonl, parquet, or src together with tgt/,
    );
  } finally {
    ws.close();
  }
});

Deno.test("importDuc loads clusters, documents and every human summary", async () => {
  const duc = join(FORMATS, "duc");
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const dirs = { docs: join(duc, "docs"), models: join(duc, "models") };
    assert.deepEqual(await importDuc(ws, dirs), { topics: 2, documents: 3, generations: 3 });
    const [t1] = await ws.topics();
    assert.deepEqual(t1, {
      topicId: "duc04-d30001t",
      request: "",
      title: "d30001t",
      summary: "Lorvath reopened its harbor bridge.",
      source: "duc04",
    });
    assert.deepEqual((await ws.generations({ topicId: "duc04-d30001t" })).map((g) => g.run), [
      "human-1",
      "human-2",
    ]);
    assert.equal(
      (await ws.documents("duc04-d30001t"))[1].title,
      "Harbor bridge in Lorvath reopens",
    );
    await importDuc(ws, dirs, { ids: "numbered" });
    assert.ok(
      (await ws.topics()).some((t) => t.topicId === "duc04-test-1" && t.title === "d30002t"),
    );
  } finally {
    ws.close();
  }
});

Deno.test("importRun and importQrels replace what is stored under the same name", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(join(dir, "ws"));
  try {
    await Deno.writeTextFile(join(dir, "a.run"), "t Q0 d1 1 2 bm25\nt Q0 d2 2 1 bm25\n");
    assert.equal(await importRun(ws, join(dir, "a.run")), 2);
    await Deno.writeTextFile(join(dir, "a.run"), "t Q0 d3 1 5 bm25\n");
    assert.equal(await importRun(ws, join(dir, "a.run")), 1);
    assert.deepEqual((await ws.runRows("bm25")).map((r) => r.docId), ["d3"]);
    await Deno.writeTextFile(join(dir, "div.qrels"), "t 1 d1 1\nt 2 d1 0\n");
    assert.equal(await importQrels(ws, join(dir, "div.qrels")), 2);
    assert.deepEqual(await ws.qrels("div"), [
      { topicId: "t", docId: "d1", grade: 1, subtopic: "1" },
      { topicId: "t", docId: "d1", grade: 0, subtopic: "2" },
    ]);
  } finally {
    ws.close();
  }
});

Deno.test("import: identical repeats are stored once; conflicting repeats are refused", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(join(dir, "ws"));
  try {
    await Deno.writeTextFile(join(dir, "pr.qrels"), "t 0 d1 3\nt 0 d2 1\nt 0 d1 3\n");
    assert.equal(await importQrels(ws, join(dir, "pr.qrels")), 2);
    assert.deepEqual((await ws.qrels("pr")).map((q) => [q.docId, q.grade]), [["d1", 3], ["d2", 1]]);
    // A document graded 3 and then 1 is an error naming both lines, as in crux eval.
    await Deno.writeTextFile(join(dir, "bad.qrels"), "t 0 d1 3\nt 0 d2 1\nt 0 d1 1\n");
    await assert.rejects(
      importQrels(ws, join(dir, "bad.qrels")),
      /bad\.qrels:3: docid: document "d1" of topic "t" \(iteration 0\) is already on line 1 with other content/,
    );
    assert.deepEqual(await ws.qrels("bad"), []);
    // import crux --qrels follows the same rule, and says what it dropped.
    const notes: string[] = [];
    await importCrux(ws, { qrels: [join(dir, "pr.qrels")] }, { onProgress: (m) => notes.push(m) });
    assert.deepEqual((await ws.qrels("pr")).map((q) => [q.docId, q.grade]), [["d1", 3], ["d2", 1]]);
    assert.ok(
      notes.includes(`qrels: 1 identical repeated lines of ${join(dir, "pr.qrels")} dropped`),
    );
    await assert.rejects(
      importCrux(ws, { qrels: [join(dir, "bad.qrels")] }),
      /bad\.qrels:3: docid: document "d1" of topic "t" \(iteration 0\) is already on line 1 with other content/,
    );
    await Deno.writeTextFile(
      join(dir, "corpus.jsonl"),
      '{"id": "t:0#0", "contents": "old"}\n{"id": "t:0#0", "contents": "new"}\n',
    );
    await assert.rejects(
      importCrux(ws, { corpus: join(dir, "corpus.jsonl") }),
      /corpus\.jsonl:2: id: "t:0#0" is already on line 1 with other content/,
    );
    assert.deepEqual(await ws.passages(), []);
  } finally {
    ws.close();
  }
});

Deno.test("importCrux refuses a judgment file judging a passage twice and stores nothing", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(join(dir, "ws"));
  try {
    const path = join(dir, "j.jsonl");
    await Deno.writeTextFile(
      path,
      '{"id":"t1","docid":"a","rating":[1]}\n{"id":"t1","docid":"a","rating":[4]}\n',
    );
    await assert.rejects(
      () => importCrux(ws, { judgments: path }),
      {
        name: "InputError",
        message:
          `${path}:2: docid: passage "a" of topic "t1" is already judged differently on line 1`,
      },
    );
    assert.deepEqual(await ws.ratings({}), []);
  } finally {
    ws.close();
  }
});
