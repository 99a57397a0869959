/**
 * One policy for odd input, the same in every command: conflicting repeats are
 * errors naming both lines, identical ones are dropped and counted; invalid
 * UTF-8, overflowing numbers and empty files are located errors; a BOM is fine.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { openWorkspace } from "../../lib/store/mod.ts";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, out: io.stdout(), err: io.stderr() };
}

const BOM = "\ufeff";
const RUN = "t1 Q0 t1:0#0 1 2.5 r\nt1 Q0 t1:0#1 2 1.5 r\n";
const QRELS = "t1 0 t1:0#0 1\nt1 0 t1:0#1 0\n";

async function files(entries: Record<string, string | Uint8Array>): Promise<(n: string) => string> {
  const dir = await Deno.makeTempDir();
  for (const [name, content] of Object.entries(entries)) {
    if (typeof content === "string") await Deno.writeTextFile(join(dir, name), content);
    else await Deno.writeFile(join(dir, name), content);
  }
  return (n: string) => join(dir, n);
}

Deno.test("repeated records: identical ones are dropped and counted, conflicting ones named", async () => {
  const p = await files({
    "same.qrels": QRELS + "t1 0 t1:0#0 1\n",
    "conflict.qrels": QRELS + "t1 0 t1:0#0 3\n",
    "dup.run": RUN + "t1 Q0 t1:0#0 3 0.5 r\n",
    "topics.jsonl":
      '{"id": "t1", "request": "storm flood"}\n{"id": "t1", "request": "storm flood"}\n',
    "topics_conflict.jsonl": '{"id": "t1", "request": "a"}\n{"id": "t1", "request": "b"}\n',
    "passages.jsonl":
      '{"id": "t1:0#0", "contents": "a storm"}\n{"id": "t1:0#1", "contents": "a flood"}\n',
  });
  const ws = p("ws");
  const same = await crux(["import", "qrels", "--workspace", ws, "--file", p("same.qrels")]);
  assert.equal(same.code, 0, same.err);
  assert.match(same.err, /1 identical repeated lines dropped/);
  const conflict = await crux([
    "import",
    "qrels",
    "--workspace",
    ws,
    "--file",
    p("conflict.qrels"),
  ]);
  assert.equal(conflict.code, 1);
  assert.match(
    conflict.err,
    /conflict\.qrels:3: docid: document "t1:0#0" of topic "t1" \(iteration 0\) is already on line 1 with other content/,
  );
  // crux eval says the same about the same file.
  const evalConflict = await crux([
    "eval",
    "--run",
    p("dup.run"),
    "--qrels",
    p("conflict.qrels"),
    "-m",
    "P@5",
  ]);
  assert.equal(evalConflict.code, 1);
  assert.match(evalConflict.err, /conflict\.qrels:3/);
  const run = await crux(["import", "run", "--workspace", ws, "--file", p("dup.run")]);
  assert.equal(run.code, 0, run.err);
  assert.match(run.err, /1 repeated documents dropped \(best-ranked kept\)/);
  const w = await openWorkspace(ws);
  try {
    assert.deepEqual(
      (await w.runRows("r")).map((r) => [r.docId, r.rank]),
      [["t1:0#0", 1], ["t1:0#1", 2]],
    );
  } finally {
    w.close();
  }
  assert.equal(
    (await crux(["index", "--passages", p("passages.jsonl"), "--out", p("idx")])).code,
    0,
  );
  const search = await crux([
    "search",
    "--index",
    p("idx"),
    "--topics",
    p("topics.jsonl"),
    "--out",
    p("o.run"),
  ]);
  assert.equal(search.code, 0, search.err);
  assert.match(search.err, /1 identical repeated topics dropped/);
  assert.equal((await Deno.readTextFile(p("o.run"))).trim().split("\n").length, 2);
  const searchConflict = await crux([
    "search",
    "--index",
    p("idx"),
    "--topics",
    p("topics_conflict.jsonl"),
    "--out",
    p("o2.run"),
  ]);
  assert.equal(searchConflict.code, 1);
  assert.match(
    searchConflict.err,
    /topics_conflict\.jsonl:2: topic "t1" is already on line 1 with other content/,
  );
});

Deno.test("invalid UTF-8 is an error with its line in every reader; a BOM is accepted", async () => {
  const enc = new TextEncoder();
  const bad = (text: string) => {
    const bytes = enc.encode(text);
    const i = text.indexOf("@");
    bytes[i] = 0xff;
    return bytes;
  };
  const p = await files({
    "bad.run": bad("t1 Q0 t1:0#0 1 2.5 r\nt1 Q0 t1:0#@ 2 1.5 r\n"),
    "bad.qrels": bad("t1 0 t1:0#0 1\nt2 0 t@:0#1 0\n"),
    "bad.jsonl": bad(
      '{"id": "p1", "question": "q?", "context": "c"}\n{"id": "p@", "question": "q?", "context": "c"}\n',
    ),
    "bom.run": BOM + RUN,
    "bom.qrels": BOM + QRELS,
    "bom.jsonl": BOM + '{"id": "p1", "question": "Where?", "context": "In the harbour."}\n',
  });
  const runBad = await crux([
    "eval",
    "--run",
    p("bad.run"),
    "--qrels",
    p("bom.qrels"),
    "-m",
    "P@5",
  ]);
  assert.equal(runBad.code, 1);
  assert.match(
    runBad.err,
    /bad\.run:2: not valid UTF-8 \(byte 0xff at column 12, file offset 32\)/,
  );
  const qrelsBad = await crux([
    "import",
    "qrels",
    "--workspace",
    p("ws"),
    "--file",
    p("bad.qrels"),
  ]);
  assert.equal(qrelsBad.code, 1);
  assert.match(qrelsBad.err, /bad\.qrels:2: not valid UTF-8/);
  const judgeBad = await crux([
    "judge",
    "answerability",
    "--input",
    p("bad.jsonl"),
    "--out",
    p("o.jsonl"),
    "--backend",
    "lexical",
  ]);
  assert.equal(judgeBad.code, 1);
  assert.match(judgeBad.err, /bad\.jsonl:2: not valid UTF-8/);
  const ok = await crux([
    "eval",
    "--run",
    p("bom.run"),
    "--qrels",
    p("bom.qrels"),
    "-m",
    "P@1",
    "--format",
    "json",
  ]);
  assert.equal(ok.code, 0, ok.err);
  assert.equal(JSON.parse(ok.out).aggregate["P@1"], 1);
  const judged = await crux([
    "judge",
    "answerability",
    "--input",
    p("bom.jsonl"),
    "--out",
    p("o.jsonl"),
    "--backend",
    "lexical",
  ]);
  assert.equal(judged.code, 0, judged.err);
});

Deno.test("overflowing numbers, grades outside int32 and empty files are located errors", async () => {
  const p = await files({
    "inf.run": "t1 Q0 t1:0#0 1 1e400 r\n",
    "big.qrels": "t1 0 t1:0#0 99999999999\n",
    "r.run": RUN,
    "q.qrels": QRELS,
    "empty.run": "",
    "empty.qrels": "\n  \n",
    "empty.jsonl": "",
    "huge.jsonl": '{"id": "t1", "docid": "t1:0#0", "rating": [1e400]}\n',
  });
  const cases: [string[], RegExp][] = [
    [
      ["eval", "--run", p("inf.run"), "--qrels", p("q.qrels"), "-m", "P@5"],
      /inf\.run:1: score: 1e400 is out of range/,
    ],
    [
      ["eval", "--run", p("r.run"), "--qrels", p("big.qrels"), "-m", "P@5"],
      /big\.qrels:1: grade: 99999999999 is out of range/,
    ],
    [
      ["import", "qrels", "--workspace", p("ws"), "--file", p("big.qrels")],
      /big\.qrels:1: grade: 99999999999 is out of range/,
    ],
    [
      ["eval", "--run", p("empty.run"), "--qrels", p("q.qrels"), "-m", "P@5"],
      /empty\.run: the run file is empty/,
    ],
    [
      ["eval", "--run", p("r.run"), "--qrels", p("empty.qrels"), "-m", "P@5"],
      /empty\.qrels: the qrels file is empty/,
    ],
    [
      ["eval", "--run", p("r.run"), "--judgments", p("empty.jsonl"), "-m", "Cov@5"],
      /empty\.jsonl: the file is empty/,
    ],
    [
      ["import", "qrels", "--workspace", p("ws"), "--file", p("empty.qrels")],
      /empty\.qrels: the file is empty/,
    ],
    [[
      "judge",
      "answerability",
      "--input",
      p("empty.jsonl"),
      "--out",
      p("o.jsonl"),
      "--backend",
      "lexical",
    ], /empty\.jsonl: the file is empty/],
    [
      ["eval", "--run", p("r.run"), "--judgments", p("huge.jsonl"), "-m", "Cov@5"],
      /huge\.jsonl:1: rating\[0\]/,
    ],
  ];
  for (const [args, message] of cases) {
    const r = await crux(args);
    assert.equal(r.code, 1, `${args.join(" ")}: ${r.err}`);
    assert.match(r.err, message, args.join(" "));
  }
});
