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
