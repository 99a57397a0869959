import assert from "node:assert/strict";
import { join } from "node:path";
import { parseCorpus, readCorpus, streamCorpus } from "./crux_corpus.ts";
import { parseJudgments, readJudgments } from "./crux_judgments.ts";
import {
  parseSubquestions,
  readSubquestions,
  stripQuestionNumbering,
} from "./crux_subquestions.ts";
import { parseTopics, readTopicsFile } from "./crux_topics.ts";
import { inputError, inputErrorOf } from "./_testing.ts";
import { itemTopic, parsePassageId } from "./passage_id.ts";
import { prefixRewrite, rewriteItem, rewriteOwnTopic } from "./topic_rewrite.ts";

const DATA = new URL("./testdata/crux/", import.meta.url).pathname;

Deno.test("passage ids split into topic, document and passage number", () => {
  assert.deepEqual(parsePassageId("multi_news-test-12:2#7"), {
    topicId: "multi_news-test-12",
    docId: "multi_news-test-12:2",
    docIndex: 2,
    index: 7,
  });
  assert.equal(parsePassageId("t:report"), undefined);
  assert.equal(itemTopic("duc04-test-3:report"), "duc04-test-3");
  assert.equal(itemTopic("a:b:0#1"), "a:b");
  assert.equal(itemTopic("plain"), undefined);
});

Deno.test("prefixRewrite maps prefixes and rejects malformed specs", () => {
  const rw = prefixRewrite(["duc04-testb-=duc04-test-"]);
  assert.equal(rw("duc04-testb-7"), "duc04-test-7");
  assert.equal(rw("multi_news-test-1"), "multi_news-test-1");
  assert.equal(
    rewriteItem("duc04-testb-7:1#3", "duc04-testb-7", "duc04-test-7"),
    "duc04-test-7:1#3",
  );
  assert.throws(() => prefixRewrite(["nodash"]), /expected FROM=TO/);
  // An item follows its own topic's rewrite, whatever topic it is ranked under.
  assert.equal(rewriteOwnTopic("duc04-testb-19:0#2", rw), "duc04-test-19:0#2");
  assert.equal(rewriteOwnTopic("duc04-testb-19:report", rw), "duc04-test-19:report");
  assert.equal(rewriteOwnTopic("APW19981016.0240", rw), "APW19981016.0240");
  assert.equal(rewriteOwnTopic("multi_news-test-1:0#0", rw), "multi_news-test-1:0#0");
});

Deno.test("corpus accepts contents or text and reports lines without them", async () => {
  assert.deepEqual(await readCorpus(join(DATA, "corpus.jsonl")), [
    { id: "duc04-testb-1:0#0", contents: "The storm reached the coast." },
    { id: "duc04-testb-1:1#1", contents: "Officials ordered evacuations." },
  ]);
  const text = '{"id": "a:0#0", "contents": "x"}\nnot json\n{"id": "a:0#1"}\n[1]\n';
  const e = inputError(() => parseCorpus(text, { file: "c.jsonl" }));
  assert.deepEqual(e.problems.map((p) => `${p.line}:${p.field ?? ""}`), ["2:", "3:contents", "4:"]);
  assert.match(e.message, /^c\.jsonl:2: invalid JSON/);
  assert.match(e.message, /c\.jsonl:3: contents: missing; add this field/);
  const ids: string[] = [];
  for await (const entry of streamCorpus(join(DATA, "corpus.jsonl"))) ids.push(entry.id);
  assert.equal(ids.length, 2);
});

Deno.test("stripQuestionNumbering removes generated numbering only", () => {
  assert.equal(
    stripQuestionNumbering("\n\n2. Who ordered the evacuation?"),
    "Who ordered the evacuation?",
  );
  assert.equal(stripQuestionNumbering("10) When?"), "When?");
  assert.equal(stripQuestionNumbering("- What?"), "What?");
  assert.equal(stripQuestionNumbering("3.5 million people left?"), "3.5 million people left?");
  assert.equal(stripQuestionNumbering("1990s trends?"), "1990s trends?");
});

Deno.test("sub-questions: numbering stripped, order kept, ids rewritten, bad shapes reported", async () => {
  const qs = await readSubquestions(join(DATA, "subquestions.json"), {
    rewriteTopic: prefixRewrite(["duc04-testb-=duc04-test-"]),
  });
  assert.deepEqual([...qs], [["duc04-test-1", [
    "Where did the storm hit?",
    "Who ordered evacuations?",
  ]]]);
  assert.throws(
    () => parseSubquestions("[1]", { file: "q.json" }),
    /q\.json: expected a JSON object/,
  );
  assert.throws(
    () => parseSubquestions('{"t": ["a", 3]}', { file: "q.json" }),
    /q\.json: t\[1\]: expected a question string/,
  );
  assert.throws(() => parseSubquestions("{", { file: "q.json" }), /q\.json: invalid JSON/);
});

Deno.test("topics: older, newer and query shapes", async () => {
  const older = parseTopics(
    '{"example_id": "duc04-testb-1", "topic": "Report on the storm.", "questions": ["1. Where?"], "report": "A storm."}',
    { file: "t.jsonl", rewriteTopic: prefixRewrite(["duc04-testb-=duc04-test-"]) },
  );
  assert.deepEqual(older.topics, [{
    topicId: "duc04-test-1",
    request: "Report on the storm.",
    summary: "A storm.",
  }]);
  assert.deepEqual([...older.questions], [["duc04-test-1", ["Where?"]]]);
  assert.deepEqual(await readTopicsFile(join(DATA, "topics.jsonl")), [
    { topicId: "q1", request: "Report on storms." },
    { topicId: "q2", request: "what is bm25" },
    { topicId: "7", request: "solar power", title: "Solar" },
  ]);
  const e = inputError(() => parseTopics('{"id": "t"}\n{"request": "r"}', { file: "t.jsonl" }));
  assert.deepEqual(e.problems.map((p) => [p.line, p.field]), [[1, "request"], [2, "id"]]);
});

Deno.test("judgments: both variants, -1 kept, rewrite applied to topic and item", async () => {
  const rewriteTopic = prefixRewrite(["duc04-testb-=duc04-test-"]);
  assert.deepEqual(await readJudgments(join(DATA, "judgments.jsonl"), { rewriteTopic }), [
    { topicId: "duc04-test-1", itemId: "duc04-test-1:0#0", ratings: [5, 0] },
    { topicId: "duc04-test-1", itemId: "duc04-test-1:1#1", ratings: [-1, 4] },
    { topicId: "duc04-test-1", itemId: "duc04-test-1:report", ratings: [5, 5] },
  ]);
});

Deno.test("judgments: a second line for the same (topic, passage) is an error, all listed", async () => {
  const text = [
    '{"id":"t1","docid":"a","rating":[1]}',
    '{"id":"t1","docid":"b","rating":[2]}',
    '{"id":"t1","docid":"a","rating":[4]}',
    '{"id":"t2","docid":"a","rating":[4]}',
    '{"example_id":"t1","pid":"b","rating":[0]}',
  ].join("\n") + "\n";
  const expected = [
    'j.jsonl:3: docid: passage "a" of topic "t1" is already judged differently on line 1',
    'j.jsonl:5: pid: passage "b" of topic "t1" is already judged differently on line 2',
  ];
  assert.deepEqual(
    inputError(() => parseJudgments(text, { file: "j.jsonl" })).message.split("\n"),
    expected,
  );
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "j.jsonl");
    await Deno.writeTextFile(path, text);
    const e = await inputErrorOf(readJudgments(path));
    assert.deepEqual(e.problems.map((p) => [p.line, p.field]), [[3, "docid"], [5, "pid"]]);
    assert.equal(e.problems[0].file, path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // Duplicates are found after rewriting topic ids.
  const rewritten = [
    '{"id":"duc04-testb-1","docid":"duc04-testb-1:0#0","rating":[1]}',
    '{"id":"duc04-test-1","docid":"duc04-test-1:0#0","rating":[2]}',
  ].join("\n");
  assert.deepEqual(
    inputError(() =>
      parseJudgments(rewritten, {
        file: "j",
        rewriteTopic: prefixRewrite(["duc04-testb-=duc04-test-"]),
      })
    ).problems.map((p) => p.line),
    [2],
  );
});

Deno.test("judgments: out-of-range, fractional and wrongly sized rating lists are errors", () => {
  const text = [
    '{"id": "t", "docid": "t:0#0", "rating": [1, 2]}',
    '{"id": "t", "docid": "t:0#1", "rating": [1, 6]}',
    '{"id": "t", "docid": "t:0#2", "rating": [1.5, 2]}',
    '{"id": "t", "docid": "t:0#3", "rating": [1]}',
    '{"id": "t", "docid": "t:0#4", "rating": "5"}',
  ].join("\n");
  assert.deepEqual(
    inputError(() => parseJudgments(text, { file: "j.jsonl" })).message.split("\n"),
    [
      "j.jsonl:2: rating[1]: expected an integer from -1 to 5, found 6",
      "j.jsonl:3: rating[0]: expected an integer from -1 to 5, found 1.5",
      'j.jsonl:4: rating: expected 2 ratings like line 1 of topic "t", found 1',
      'j.jsonl:5: rating: expected a list, found "5"',
    ],
  );
  assert.throws(
    () => parseJudgments(text.split("\n")[0], { file: "j", questionCounts: new Map([["t", 3]]) }),
    /j:1: rating: expected 3 ratings \(one per sub-question of topic "t"\), found 2/,
  );
});

Deno.test("corpus: a repeated id with other contents names both lines; an exact repeat is dropped", async () => {
  const text = [
    '{"id": "t:0#0", "contents": "a"}',
    '{"id": "t:0#1", "contents": "b"}',
    "",
    '{"id": "t:0#0", "contents": "c"}',
    '{"id": "t:0#1", "contents": "d"}',
  ].join("\n");
  assert.deepEqual(
    inputError(() => parseCorpus(text, { file: "c.jsonl" })).message.split("\n"),
    [
      'c.jsonl:4: id: "t:0#0" is already on line 1 with other content',
      'c.jsonl:5: id: "t:0#1" is already on line 2 with other content',
    ],
  );
  let dropped = -1;
  const same = parseCorpus('{"id": "x", "text": "a"}\n{"id": "x", "contents": "a"}\n', {
    file: "c.jsonl",
    onDuplicates: (n) => (dropped = n),
  });
  assert.deepEqual([same, dropped], [[{ id: "x", contents: "a" }], 1]);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "c.jsonl"), text);
    const e = await inputErrorOf(readCorpus(join(dir, "c.jsonl"), { uniqueIds: true }));
    assert.deepEqual(e.problems.map((p) => [p.line, p.field]), [[4, "id"], [5, "id"]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("judgments: an identical repeated line is dropped and counted; an empty file is an error", () => {
  let dropped = -1;
  const out = parseJudgments(
    '{"id":"t1","docid":"a","rating":[1]}\n{"id":"t1","docid":"a","rating":[1]}\n',
    { file: "j.jsonl", onDuplicates: (n) => (dropped = n) },
  );
  assert.deepEqual(out, [{ topicId: "t1", itemId: "a", ratings: [1] }]);
  assert.equal(dropped, 1);
  assert.deepEqual(
    inputError(() => parseJudgments("\n  \n", { file: "j.jsonl" })).message.split("\n"),
    ["j.jsonl: the file is empty; expected one JSON object per line"],
  );
});

Deno.test("sub-questions: two ids that rewrite alike are kept once with the same questions, refused with others", () => {
  const rewriteTopic = (id: string) => id.replace("testb", "test");
  const same = parseSubquestions('{"duc-testb-1": ["1. Who?"], "duc-test-1": ["Who?"]}', {
    file: "q.json",
    rewriteTopic,
  });
  assert.deepEqual([...same], [["duc-test-1", ["Who?"]]]);
  const error = inputError(() =>
    parseSubquestions('{"duc-testb-1": ["Who?"], "duc-test-1": ["Why?"]}', {
      file: "q.json",
      rewriteTopic,
    })
  );
  assert.deepEqual(error.problems.map((p) => [p.file, p.field]), [["q.json", "duc-test-1"]]);
  assert.match(error.problems[0].message, /appears twice after rewriting, with other questions/);
});
