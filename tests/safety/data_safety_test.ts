/**
 * Commands never destroy user data: outputs that name an input, another output
 * or the workspace are refused and the file stays byte-identical; `crux index`
 * only replaces a folder that is missing, empty or one of its own indexes; a
 * corrupt index fails fast.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";

const PASSAGES = [
  { id: "t1:0#0", contents: "A hurricane hit the Florida coast on Monday." },
  { id: "t1:0#1", contents: "Coast guard crews rescued fishermen after the hurricane." },
  { id: "t2:0#2", contents: "Stock markets fell sharply in Tokyo on Monday." },
].map((o) => JSON.stringify(o)).join("\n") + "\n";
const TOPICS = '{"id": "t1", "request": "hurricane coast"}\n{"id": "t2", "request": "markets"}\n';
const JUDGMENTS = '{"id": "t1", "docid": "t1:0#0", "rating": [5, 0]}\n' +
  '{"id": "t1", "docid": "t1:0#1", "rating": [0, 4]}\n';
const PAIRS = '{"id": "p1", "question": "Where did it hit?", "context": "The coast."}\n';

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, out: io.stdout(), err: io.stderr() };
}

/** Every file below `dir` with its bytes, to compare before and after. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) { for (const [k, v] of await snapshot(p)) out.set(k, v); }
    else out.set(p, Array.from(await Deno.readFile(p)).join(","));
  }
  return out;
}

async function fixture() {
  const dir = await Deno.makeTempDir();
  const f = (name: string, text: string) => Deno.writeTextFile(join(dir, name), text);
  await f("passages.jsonl", PASSAGES);
  await f("topics.jsonl", TOPICS);
  await f("judgments.jsonl", JUDGMENTS);
  await f("pairs.jsonl", PAIRS);
  return dir;
}

Deno.test("crux index refuses a folder holding other files and leaves it untouched", async () => {
  const dir = await fixture();
  const project = join(dir, "project");
  await Deno.mkdir(join(project, "src"), { recursive: true });
  await Deno.writeTextFile(join(project, "notes.txt"), "keep me");
  await Deno.writeTextFile(join(project, "src", "a.ts"), "export const a = 1;");
  const before = await snapshot(project);
  const r = await crux(["index", "--passages", join(dir, "passages.jsonl"), "--out", project]);
  assert.equal(r.code, 1);
  assert.match(
    r.err,
    /Refusing to write --out ".*project": it is a folder with 2 entries; --out writes an index folder/,
  );
  assert.deepEqual(await snapshot(project), before);
  // `--out .` from inside a project folder is the same case.
  const cwd = Deno.cwd();
  Deno.chdir(project);
  try {
    const dot = await crux(["index", "--passages", join(dir, "passages.jsonl"), "--out", "."]);
    assert.equal(dot.code, 1);
  } finally {
    Deno.chdir(cwd);
  }
  assert.deepEqual(await snapshot(project), before);
});

Deno.test("crux index refuses to overwrite its input and replaces only its own indexes", async () => {
  const dir = await fixture();
  const passages = join(dir, "passages.jsonl");
  const r = await crux(["index", "--passages", passages, "--out", passages]);
  assert.equal(r.code, 1);
  assert.match(r.err, /it is a file, not a folder/);
  assert.equal(await Deno.readTextFile(passages), PASSAGES);
  const idx = join(dir, "idx");
  await Deno.mkdir(idx);
  assert.equal((await crux(["index", "--passages", passages, "--out", idx])).code, 0);
  const first = await snapshot(idx);
  // Rebuilding over our own index works; a failed build (bad input) keeps the old one.
  assert.equal(
    (await crux(["index", "--passages", passages, "--out", idx, "--k1", "1.2"])).code,
    0,
  );
  assert.equal(JSON.parse(await Deno.readTextFile(join(idx, "manifest.json"))).k1, 1.2);
  await Deno.writeTextFile(join(dir, "bad.jsonl"), PASSAGES + '{"id": 3}\n');
  const kept = await snapshot(idx);
  assert.equal((await crux(["index", "--passages", join(dir, "bad.jsonl"), "--out", idx])).code, 1);
  assert.deepEqual(await snapshot(idx), kept);
  assert.notDeepEqual(kept, first);
  // An index folder with a stranger inside is not ours to replace.
  await Deno.writeTextFile(join(idx, "thesis.tex"), "\\documentclass{article}");
  const mixed = await crux(["index", "--passages", passages, "--out", idx]);
  assert.equal(mixed.code, 1);
  assert.match(mixed.err, /besides the index it holds other files \(e\.g\. "thesis\.tex"\)/);
  const leftovers = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith("."));
  assert.deepEqual(leftovers, [], "no temporary folders left behind");
});

Deno.test("every command refuses an output that names one of its inputs", async () => {
  const dir = await fixture();
  const p = (n: string) => join(dir, n);
  await crux(["index", "--passages", p("passages.jsonl"), "--out", p("idx")]);
  const cases: [string[], string, RegExp][] = [
    [
      ["search", "--index", p("idx"), "--topics", p("topics.jsonl"), "--out", p("topics.jsonl")],
      "topics.jsonl",
      /--out ".*topics\.jsonl": it is input --topics/,
    ],
    [
      ["subq", "decompose", "--questions", p("topics.jsonl"), "--out", p("topics.jsonl")],
      "topics.jsonl",
      /--out ".*topics\.jsonl": it is input --questions/,
    ],
    [
      [
        "construct",
        "select",
        "--judgments",
        p("judgments.jsonl"),
        "--out-qrels",
        p("judgments.jsonl"),
        "--out-div-qrels",
        p("d.txt"),
      ],
      "judgments.jsonl",
      /--out-qrels ".*judgments\.jsonl": it is input --judgments/,
    ],
    [
      [
        "judge",
        "answerability",
        "--input",
        p("pairs.jsonl"),
        "--out",
        p("pairs.jsonl"),
        "--backend",
        "lexical",
      ],
      "pairs.jsonl",
      /--out ".*pairs\.jsonl": it is input --input/,
    ],
    [
      [
        "batch",
        "export",
        "answerability",
        "--input",
        p("pairs.jsonl"),
        "--out",
        p("pairs.jsonl"),
        "--model",
        "m",
        "--workspace",
        p("ws"),
      ],
      "pairs.jsonl",
      /--out ".*pairs\.jsonl": it is input --input/,
    ],
    [
      // Through `..` and a symlink: still the same file.
      [
        "search",
        "--index",
        p("idx"),
        "--topics",
        p("topics.jsonl"),
        "--out",
        join(dir, "idx", "..", "topics.jsonl"),
      ],
      "topics.jsonl",
      /it is input --topics/,
    ],
  ];
  await Deno.symlink(p("judgments.jsonl"), p("link.jsonl"));
  cases.push([
    [
      "construct",
      "select",
      "--judgments",
      p("judgments.jsonl"),
      "--out-qrels",
      p("q.txt"),
      "--out-div-qrels",
      p("link.jsonl"),
    ],
    "judgments.jsonl",
    /--out-div-qrels ".*link\.jsonl": it is input --judgments/,
  ]);
  for (const [args, file, message] of cases) {
    const before = await Deno.readFile(p(file));
    const r = await crux(args);
    assert.equal(r.code, 1, `${args.join(" ")}: ${r.err}`);
    assert.match(r.err, message);
    assert.deepEqual(await Deno.readFile(p(file)), before, `${file} changed`);
  }
  // Two outputs naming one file.
  const both = await crux([
    "construct",
    "select",
    "--judgments",
    p("judgments.jsonl"),
    "--out-qrels",
    p("same.txt"),
    "--out-div-qrels",
    p("same.txt"),
  ]);
  assert.equal(both.code, 1);
  assert.match(both.err, /--out-div-qrels ".*same\.txt": it is output --out-qrels/);
  await assert.rejects(Deno.stat(p("same.txt")), Deno.errors.NotFound);
});

Deno.test("no command overwrites a workspace's database", async () => {
  const dir = await fixture();
  const ws = join(dir, "ws");
  const imported = await crux(["import", "sample", "--workspace", ws]);
  assert.equal(imported.code, 0, imported.err);
  const db = join(ws, "workspace.duckdb");
  const before = await Deno.readFile(db);
  const exp = await crux([
    "export",
    "--workspace",
    ws,
    "--table",
    "topics",
    "--out",
    db,
    "--format",
    "csv",
  ]);
  assert.equal(exp.code, 1);
  assert.match(exp.err, /Refusing to write --out ".*workspace\.duckdb": it is the workspace file/);
  const judge = await crux([
    "judge",
    "answerability",
    "--input",
    join(dir, "pairs.jsonl"),
    "--out",
    db,
    "--workspace",
    ws,
    "--backend",
    "lexical",
  ]);
  assert.equal(judge.code, 1);
  const batch = await crux([
    "batch",
    "export",
    "answerability",
    "--input",
    join(dir, "pairs.jsonl"),
    "--out",
    join(ws, ".", "workspace.duckdb"),
    "--workspace",
    ws,
    "--model",
    "m",
  ]);
  assert.equal(batch.code, 1);
  assert.deepEqual(await Deno.readFile(db), before);
});

Deno.test("a corrupt index (right sizes, random bytes) fails fast with a rebuild hint", async () => {
  const dir = await fixture();
  const idx = join(dir, "idx");
  await crux(["index", "--passages", join(dir, "passages.jsonl"), "--out", idx]);
  for (const name of ["postings.bin", "offsets.u32", "lengths.u32"]) {
    const copy = join(dir, `idx-${name}`);
    await Deno.mkdir(copy);
    for await (const e of Deno.readDir(idx)) {
      await Deno.copyFile(join(idx, e.name), join(copy, e.name));
    }
    const size = (await Deno.stat(join(copy, name))).size;
    const noise = new Uint8Array(size);
    crypto.getRandomValues(noise);
    noise[0] ^= 0x80; // never identical to the original
    await Deno.writeFile(join(copy, name), noise);
    const t0 = performance.now();
    const r = await crux([
      "search",
      "--index",
      copy,
      "--topics",
      join(dir, "topics.jsonl"),
      "--out",
      join(dir, "x.run"),
    ]);
    assert.equal(r.code, 1, name);
    assert.match(r.err, /is corrupt \(.*\); rebuild it with `crux index`/, name);
    assert.ok(performance.now() - t0 < 5000, `${name}: took ${performance.now() - t0} ms`);
  }
});

Deno.test("commands that only read a workspace never create one", async () => {
  const dir = await fixture();
  for (
    const args of [
      ["llm", "stats", "--workspace", join(dir, "typo")],
      [
        "export",
        "--workspace",
        join(dir, "typo"),
        "--table",
        "topics",
        "--out",
        join(dir, "t.csv"),
      ],
      ["construct", "stats", "--workspace", join(dir, "typo")],
    ]
  ) {
    const r = await crux(args);
    assert.equal(r.code, 1, `${args.join(" ")}: ${r.err}`);
    assert.match(r.err, /typo.*(has no workspace\.duckdb|no such file|does not exist)/i);
    await assert.rejects(Deno.stat(join(dir, "typo")), Deno.errors.NotFound, args.join(" "));
  }
});
