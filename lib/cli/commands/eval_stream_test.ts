import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { evalCommand } from "./eval.ts";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(["eval", ...args], io, [evalCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

async function dir(files: Record<string, string>) {
  const d = await Deno.makeTempDir();
  for (const [n, t] of Object.entries(files)) await Deno.writeTextFile(join(d, n), t);
  return (n: string) => join(d, n);
}

const QRELS = "t1 0 a 1\nt1 0 b 0\nt2 0 a 2\nt2 0 c 1\n";

Deno.test("crux eval: a run not grouped by topic gives the grouped run's values and a note", async () => {
  // Topic t1 comes back after about 5 MB of t2, past the reader's first chunk.
  const filler = Array.from({ length: 200_000 }, (_, i) => `t2 Q0 d${i} ${i + 3} 1 r\n`).join("");
  const grouped = "t1 Q0 a 1 3 r\nt1 Q0 b 2 2 r\nt2 Q0 c 1 5 r\nt2 Q0 a 2 4 r\n" + filler;
  const ungrouped = "t1 Q0 a 1 3 r\nt2 Q0 c 1 5 r\nt2 Q0 a 2 4 r\n" + filler + "t1 Q0 b 2 2 r\n";
  const p = await dir({ "g.run": grouped, "u.run": ungrouped, q: QRELS });
  const args = ["--qrels", p("q"), "-m", "AP nDCG@10", "--format", "json", "--per-query"];
  const g = await crux(["--run", p("g.run"), ...args]);
  const u = await crux(["--run", p("u.run"), ...args]);
  assert.equal(g.code, 0);
  assert.equal(u.code, 0);
  assert.equal(u.out, g.out);
  // AP: t1 = 1 (a at 1), t2 = (1/1 + 2/2) / 2 = 1; nDCG@10 of t2: c (1) then a (2).
  const t2 = (1 + 2 / Math.log2(3)) / (2 + 1 / Math.log2(3));
  assert.deepEqual(JSON.parse(g.out).aggregate, { AP: 1, "nDCG@10": (1 + t2) / 2 });
  assert.doesNotMatch(g.err, /not grouped/);
  assert.match(
    u.err,
    /# r: the run is not grouped by topic \(topic "t1" comes back after other topics\), so it was read whole into memory \(5 MiB of text/,
  );
});

Deno.test("crux eval: a malformed run line is named by its line in the file", async () => {
  const p = await dir({ "x.run": "t1 Q0 a 1 3 r\nt1 Q0 b 2 2 r\nt1 Q0 c 3 high r\n", q: QRELS });
  const bad = await crux(["--run", p("x.run"), "--qrels", p("q"), "-m", "AP"]);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /x\.run:3: score: expected a number, found "high"/);
});

Deno.test("crux eval: judged@k counts what a run retrieved when a topic has fewer than k", async () => {
  const p = await dir({ "one.run": "t1 Q0 a 1 3 r\nt2 Q0 z 1 3 r\n", q: QRELS });
  const r = await crux(["--run", p("one.run"), "--qrels", p("q"), "-m", "P@10"]);
  assert.equal(r.code, 0);
  // judged@10: t1 1/10 (a judged), t2 0/10 (z unjudged): mean 0.05.
  assert.match(
    r.out,
    /# r: judged@10 0\.0500: 2 of 2 topics have fewer than 10 documents, 1\.0 retrieved per topic in the top 10 \(judged@10 divides by 10\); 50\.0% of the retrieved ones have no judgment/,
  );
  assert.doesNotMatch(r.out, /90\.0% of the top 10/);
});

Deno.test("crux eval: an identical repeated qrels line is dropped, counted and changes nothing", async () => {
  const run = "t1 Q0 a 1 3 r\nt1 Q0 b 2 2 r\nt2 Q0 c 1 5 r\n";
  const p = await dir({ "x.run": run, q: QRELS, q2: QRELS + "t2 0 a 2\nt1 0 a 1\n" });
  const args = ["--run", p("x.run"), "-m", "AP R@10 nDCG@10", "--format", "json"];
  const once = await crux([...args, "--qrels", p("q")]);
  const twice = await crux([...args, "--qrels", p("q2")]);
  assert.equal(twice.code, 0, twice.err);
  assert.equal(twice.out, once.out);
  // R@10 of t2 stays 1/2 (c of a, c): the repeated a is not a second relevant document.
  assert.equal(JSON.parse(once.out).aggregate["R@10"], (1 + 0.5) / 2);
  assert.match(twice.err, /# qrels ".*q2": 2 identical repeated lines dropped/);
});

Deno.test("crux eval: invalid UTF-8 anywhere in a large run is named by line, column and byte", async () => {
  // About 2.4 MB before the bad line: the run is read in several chunks, which the
  // run scanner checks itself (the chunks are not checked twice).
  const head = Array.from({ length: 100_000 }, (_, i) => `t2 Q0 d${i} ${i + 1} 1 r\n`).join("");
  const enc = new TextEncoder();
  const d = await Deno.makeTempDir();
  const write = async (name: string, tail: Uint8Array) => {
    const h = enc.encode(head);
    const all = new Uint8Array(h.length + tail.length);
    all.set(h);
    all.set(tail, h.length);
    await Deno.writeFile(join(d, name), all);
    return h.length; // offset of the tail
  };
  await Deno.writeTextFile(join(d, "q"), QRELS);
  // The bad byte in a document id, in a tab-separated line, in the tag, and with --rewrite.
  const cases: [string, number[], number, string[]][] = [
    ["id.run", [...enc.encode("t2 Q0 x"), 0xff, ...enc.encode(" 100001 1 r\n")], 8, []],
    ["tab.run", [...enc.encode("t2\tQ0\td"), 0xc3, 0x28, ...enc.encode("\t100001\t1\tr\n")], 8, []],
    ["tag.run", [...enc.encode("t2 Q0 y 100001 1 r"), 0xe2, 0x82, 0x0a], 19, []],
    ["re.run", [...enc.encode("t2 Q0 x"), 0xff, ...enc.encode(" 100001 1 r\n")], 8, ["t2=t9"]],
  ];
  for (const [name, tail, column, rewrite] of cases) {
    const offset = await write(name, new Uint8Array(tail));
    const bad = await crux([
      "--run",
      join(d, name),
      "--qrels",
      join(d, "q"),
      "-m",
      "AP",
      ...rewrite.flatMap((r) => ["--rewrite", r]),
    ]);
    assert.equal(bad.code, 1, name);
    const byte = tail[column - 1].toString(16);
    assert.match(
      bad.err,
      new RegExp(
        `${
          name.replace(".", "\\.")
        }:100001: not valid UTF-8 \\(byte 0x${byte} at column ${column}, ` +
          `file offset ${offset + column - 1}\\)`,
      ),
      name,
    );
  }
  // Valid non-ASCII ids and tags, on plain and tab-separated lines, are read as they are.
  const ok = "t1 Q0 é 1 3 r\nt1\tQ0\ta\t2\t2\tr\nt2 Q0 c 1 5 r\n" + head;
  await Deno.writeTextFile(join(d, "ok.run"), ok);
  await Deno.writeTextFile(join(d, "q2"), QRELS + "t1 0 é 1\n");
  const good = await crux([
    "--run",
    join(d, "ok.run"),
    "--qrels",
    join(d, "q2"),
    "-m",
    "P@1 R@2",
    "--format",
    "json",
  ]);
  assert.equal(good.code, 0, good.err);
  // t1: é and a (both relevant) at ranks 1 and 2: P@1 = 1, R@2 = 1. t2: c (relevant)
  // first, then unjudged ids; a (relevant) not retrieved: P@1 = 1, R@2 = 1/2.
  assert.deepEqual(JSON.parse(good.out).aggregate, { "P@1": 1, "R@2": 0.75 });
});

Deno.test("crux eval: invalid UTF-8 in the qrels is named by its line; a blank qrels file is refused", async () => {
  const enc = new TextEncoder();
  const d = await Deno.makeTempDir();
  await Deno.writeTextFile(join(d, "r.run"), "t1 Q0 a 1 3 r\n");
  const head = Array.from({ length: 5000 }, (_, i) => `t${i} 0 d${i} 1\n`).join("");
  const cases: [string, number[], RegExp][] = [
    ["id.qrels", [...enc.encode("t1 0 x"), 0xff, ...enc.encode(" 1\n")], /byte 0xff at column 7/],
    [
      "tab.qrels",
      [...enc.encode("t1\t0\tx"), 0xc3, 0x28, ...enc.encode("\t1\n")],
      /byte 0xc3 at column 7/,
    ],
  ];
  for (const [name, tail, column] of cases) {
    await Deno.writeFile(join(d, name), new Uint8Array([...enc.encode(head), ...tail]));
    const bad = await crux(["--run", join(d, "r.run"), "--qrels", join(d, name), "-m", "AP"]);
    assert.equal(bad.code, 1, name);
    assert.match(bad.err, new RegExp(`${name.replace(".", "\\.")}:5001: not valid UTF-8`), name);
    assert.match(bad.err, column, name);
  }
  await Deno.writeTextFile(join(d, "blank.qrels"), "\n  \n\t\n");
  const blank = await crux([
    "--run",
    join(d, "r.run"),
    "--qrels",
    join(d, "blank.qrels"),
    "-m",
    "AP",
  ]);
  assert.equal(blank.code, 1);
  assert.match(blank.err, /blank\.qrels: the qrels file is empty/);
});
