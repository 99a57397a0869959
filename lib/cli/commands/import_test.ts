import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { importCommand } from "./import.ts";

const SAMPLE = new URL("../../store/testdata/sample/", import.meta.url).pathname;
const CRUX = new URL("../../formats/testdata/crux/", import.meta.url).pathname;

Deno.test("crux import sample prints counts and is idempotent", async () => {
  const ws = join(await Deno.makeTempDir(), "ws");
  for (let i = 0; i < 2; i++) {
    const io = memoryIo();
    assert.equal(
      await main(["import", "sample", "--workspace", ws, "--dir", SAMPLE], io, [importCommand]),
      0,
    );
    assert.equal(io.stdout(), "topics\t2\ndocuments\t3\npassages\t4\nquestions\t3\nratings\t10\n");
    assert.match(
      io.stderr(),
      /Imported sample into .*; rows stored: topics 2, documents 3, passages 4, questions 3, ratings 10\n$/,
    );
  }
  const w = await openWorkspace(ws, { readOnly: true });
  try {
    assert.equal(await w.count("ratings"), 10);
  } finally {
    w.close();
  }
});

Deno.test("crux import crux with --rewrite and repeated --qrels", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(join(dir, "pr.txt"), "duc04-testb-1 0 duc04-testb-1:0#0 3\n");
  await Deno.writeTextFile(join(dir, "div.txt"), "duc04-testb-1 1 duc04-testb-1:0#0 1\n");
  const io = memoryIo();
  const args = [
    "import",
    "crux",
    "--workspace",
    join(dir, "ws"),
    "--subquestions",
    join(CRUX, "subquestions.json"),
    "--judgments",
    join(CRUX, "judgments.jsonl"),
    "--qrels",
    join(dir, "pr.txt"),
    "--qrels",
    join(dir, "div.txt"),
    "--rewrite",
    "duc04-testb-=duc04-test-",
    "--judge",
    "llama",
  ];
  assert.equal(await main(args, io, [importCommand]), 0, io.stderr());
  assert.equal(io.stdout(), "questions\t2\nratings\t6\nqrels\t2\n");
  const stderr = io.stderr().trimEnd().split("\n");
  assert.deepEqual(stderr.slice(0, -1), [
    "questions: 2 records read",
    `ratings: reading ${join(CRUX, "judgments.jsonl")} as judge "llama"`,
    "ratings: 6 records read",
    'qrels "pr": 1 record read',
    'qrels "div": 1 record read',
  ]);
  assert.match(
    stderr.at(-1)!,
    /^Imported crux into .* in \d+\.\d s; rows stored: questions 2, ratings 6, qrels 2$/,
  );
});

Deno.test("crux import crux that fails after reading some tables says nothing was stored", async () => {
  const dir = await Deno.makeTempDir();
  const judgments = join(dir, "j.jsonl");
  // Two sub-questions for the topic, but a rating list of three: the import fails after
  // topics and questions were read (and written inside the transaction, then rolled back).
  await Deno.writeTextFile(judgments, '{"id":"q1","docid":"q1:0#0","rating":[1,2,3]}\n');
  const subquestions = join(dir, "sub.json");
  await Deno.writeTextFile(subquestions, '{"q1": ["Where?", "When?"]}');
  const topics = join(dir, "topics.jsonl");
  await Deno.writeTextFile(topics, '{"id": "q1", "request": "Report on storms."}\n');
  const ws = join(dir, "ws");
  const io = memoryIo();
  const args = [
    "import",
    "crux",
    "--workspace",
    ws,
    "--topics",
    topics,
    "--subquestions",
    subquestions,
    "--judgments",
    judgments,
  ];
  assert.equal(await main(args, io, [importCommand]), 1);
  assert.equal(io.stdout(), "");
  const stderr = io.stderr().trimEnd().split("\n");
  // Progress counts are records read, never presented as stored.
  assert.deepEqual(stderr.slice(0, 3), [
    "topics: 1 record read",
    "questions: 2 records read",
    `ratings: reading ${judgments} as judge "import:j.jsonl"`,
  ]);
  assert.match(stderr.at(-2)!, /^crux import: .*j\.jsonl:1: rating: /);
  assert.equal(stderr.at(-1), `Nothing was stored: the import into ${ws} was rolled back.`);
  const w = await openWorkspace(ws, { readOnly: true });
  try {
    assert.deepEqual([await w.count("topics"), await w.count("questions")], [0, 0]);
  } finally {
    w.close();
  }
});

Deno.test("crux import reports usage errors and input problems with exit codes 2 and 1", async () => {
  const dir = await Deno.makeTempDir();
  let io = memoryIo();
  assert.equal(await main(["import", "sample"], io, [importCommand]), 2);
  assert.match(io.stderr(), /--workspace DIR is required/);
  io = memoryIo();
  assert.equal(await main(["import", "bogus", "--workspace", dir], io, [importCommand]), 2);
  assert.match(io.stderr(), /unknown source "bogus"/);
  io = memoryIo();
  assert.equal(
    await main(["import", "multi-news", "--workspace", dir, "--src", "a"], io, [importCommand]),
    2,
  );
  assert.match(io.stderr(), /exactly one of --jsonl, --parquet, or --src with --tgt/);
  io = memoryIo();
  assert.equal(
    await main(["import", "crux", "--workspace", dir, "--rewrite", "x"], io, [importCommand]),
    2,
  );
  await Deno.writeTextFile(join(dir, "bad.run"), "q Q0 d 1 x r\n");
  io = memoryIo();
  assert.equal(
    await main(
      ["import", "run", "--workspace", join(dir, "ws"), "--file", join(dir, "bad.run")],
      io,
      [importCommand],
    ),
    1,
  );
  assert.equal(
    io.stderr(),
    `crux import: ${join(dir, "bad.run")}:1: score: expected a number, found "x"\n` +
      `Nothing was stored: the import into ${join(dir, "ws")} was rolled back.\n`,
  );
});

Deno.test("crux import --help prints the overview or one source's usage", async () => {
  let io = memoryIo();
  assert.equal(await main(["import", "--help"], io, [importCommand]), 0);
  assert.match(io.stdout(), /diversity qrels have the sub-question number \(from 1\)/);
  io = memoryIo();
  assert.equal(await main(["import", "duc", "--help"], io, [importCommand]), 0);
  assert.match(io.stdout(), /^crux import duc --workspace DIR --docs DIR --models DIR/);
});

Deno.test("crux import crux lists a passage judged twice with file and line and exits 1", async () => {
  const dir = await Deno.makeTempDir();
  const judgments = join(dir, "j.jsonl");
  await Deno.writeTextFile(
    judgments,
    '{"id":"t1","docid":"a","rating":[1]}\n{"id":"t1","docid":"a","rating":[4]}\n',
  );
  const io = memoryIo();
  const args = ["import", "crux", "--workspace", join(dir, "ws"), "--judgments", judgments];
  assert.equal(await main(args, io, [importCommand]), 1);
  assert.equal(io.stdout(), "");
  assert.match(
    io.stderr(),
    /j\.jsonl:2: docid: passage "a" of topic "t1" is already judged differently on line 1\nNothing was stored: /,
  );
});
