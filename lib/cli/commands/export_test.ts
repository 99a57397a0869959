import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { exportCommand } from "./export.ts";

async function workspace(): Promise<string> {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  await ws.insert("runs", [
    { run: "bm25", topicId: "t", docId: "d1", rank: 1, score: 3 },
    { run: "dense", topicId: "t", docId: "d2", rank: 1, score: 0.5 },
  ]);
  await ws.insert("topics", [{ topicId: "t", request: "r" }]);
  ws.close();
  return dir;
}

Deno.test("crux export writes TREC runs and infers the format from the extension", async () => {
  const dir = await workspace();
  let io = memoryIo();
  const out = join(dir, "bm25.run");
  assert.equal(
    await main(
      ["export", "--workspace", dir, "--table", "runs", "--out", out, "--run", "bm25"],
      io,
      [exportCommand],
    ),
    0,
  );
  assert.equal(await Deno.readTextFile(out), "t Q0 d1 1 3 bm25\n");
  assert.equal(io.stdout(), `${out}\t1\n`);
  io = memoryIo();
  const csv = join(dir, "topics.csv");
  assert.equal(
    await main(["export", "--workspace", dir, "--table", "topics", "--out", csv], io, [
      exportCommand,
    ]),
    0,
  );
  assert.equal(await Deno.readTextFile(csv), "topicId,request,title,summary,source\nt,r,,,\n");
});

Deno.test("crux export refuses unknown tables, formats and TREC for other tables", async () => {
  const dir = await workspace();
  const cases: [string[], RegExp][] = [
    [["--table", "nope", "--out", "x.csv"], /unknown table "nope"/],
    [["--table", "runs", "--out", "x.txt"], /cannot tell the format from "x.txt"/],
    [["--table", "runs", "--out", "x", "--format", "xml"], /unknown format "xml"/],
    [
      ["--table", "topics", "--out", "x", "--format", "trec"],
      /works for the runs and qrels tables/,
    ],
    [["--table", "runs"], /missing --out/],
  ];
  for (const [args, pattern] of cases) {
    const io = memoryIo();
    assert.equal(await main(["export", "--workspace", dir, ...args], io, [exportCommand]), 2);
    assert.match(io.stderr(), pattern);
  }
});

Deno.test("crux export --table qrels with several qrels sets names --name", async () => {
  const dir = await workspace();
  const ws = await openWorkspace(dir);
  await ws.insert("qrels", [
    { name: "crux_pr", topicId: "t", subtopic: "0", docId: "d1", grade: 3 },
    { name: "crux_div", topicId: "t", subtopic: "1", docId: "d1", grade: 1 },
  ]);
  ws.close();
  const out = join(dir, "x.qrels");
  let io = memoryIo();
  const args = ["export", "--workspace", dir, "--table", "qrels", "--out", out];
  assert.equal(await main(args, io, [exportCommand]), 2);
  assert.match(io.stderr(), /2 qrels sets \(crux_div, crux_pr\); choose one with --name/);
  io = memoryIo();
  assert.equal(await main([...args, "--name", "crux_pr"], io, [exportCommand]), 0);
  assert.equal(await Deno.readTextFile(out), "t 0 d1 3\n");
});
