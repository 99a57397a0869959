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
    assert.match(io.stderr(), /Imported sample into/);
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
    `crux import: ${join(dir, "bad.run")}:1: score: expected a number, found "x"\n`,
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
    /j\.jsonl:2: docid: passage "a" of topic "t1" is already judged on line 1\n$/,
  );
});
