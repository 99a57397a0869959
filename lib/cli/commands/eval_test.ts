import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { evalCommand } from "./eval.ts";

/** Writes the fixture files into a fresh temporary folder. */
async function fixtures(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "crux-eval-test-" });
  const files: Record<string, string> = {
    // q1 ranking by score: d3, dX, d1, d2 (d3 repeated at the end); q3 is unjudged.
    "a.run": "q1 Q0 d1 3 0.8 runA\nq1 Q0 d3 1 0.9 runA\nq1 Q0 d2 4 0.5 runA\n" +
      "q1 Q0 dX 2 0.8 runA\nq1 Q0 d3 5 0.1 runA\nq2 Q0 d9 1 1 runA\nq3 Q0 d1 1 1 runA\n",
    "b.run": "q1 Q0 d1 1 2 runB\nq2 Q0 d9 1 1 runB\n",
    "qrels.txt": "q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 0\nq1 0 d4 1\nq2 0 d9 0\nq4 0 d1 1\n",
    "div.run": "q0 Q0 d0 1 1 div\n",
    "div.qrels": "q0 0 d0 1\nq0 1 d0 1\nq0 0 d1 1\n",
    "crux.run": "t Q0 t:1#2 1 3 bm25\nt Q0 t:0#0 2 2 bm25\nt Q0 x 3 1 bm25\n",
    "judge.jsonl": [
      { id: "t", docid: "t:0#0", rating: [5, 0, 0] },
      { id: "t", docid: "t:0#1", rating: [0, 4, 0] },
      { id: "t", docid: "t:1#2", rating: [0, 0, 2] },
      { id: "t", docid: "t:1#3", rating: [3, -1, 0] },
    ].map((r) => JSON.stringify(r)).join("\n") + "\n",
    // Whitespace tokens: 100, 100, 50, 50, 10.
    "corpus.jsonl": [["t:0#0", 100], ["t:0#1", 100], ["t:1#2", 50], ["t:1#3", 50], ["x", 10]]
      .map(([id, n]) => JSON.stringify({ id, contents: Array(n).fill("w").join(" ") })).join("\n") +
      "\n",
    "bad.run": "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 two 0.4 r\n",
  };
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(join(dir, name), text);
  return dir;
}

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(["eval", ...args], io, [evalCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

Deno.test("crux eval --format json prints exactly one object", async () => {
  const dir = await fixtures();
  const r = await crux([
    "--run",
    join(dir, "a.run"),
    "--qrels",
    join(dir, "qrels.txt"),
    "-m",
    "P@5, ndcg_cut_4 map",
    "--format",
    "json",
  ]);
  assert.equal(r.code, 0, r.err);
  const json = JSON.parse(r.out);
  assert.deepEqual(Object.keys(json), ["aggregate", "topics"]);
  assert.equal(json.topics, 2);
  assert.equal(json.aggregate["P@5"], 0.2); // (2/5 + 0) / 2
  assert.ok(Math.abs(json.aggregate["nDCG@4"] - 0.4569494273838043 / 2) < 1e-15);
  assert.ok(Math.abs(json.aggregate["AP"] - (1 / 3 + 1 / 2) / 3 / 2) < 1e-15);
  assert.match(r.err, /1 repeated documents dropped/);
  assert.match(r.err, /1 run topics have no judgments/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux eval --per-query, --complete and csv", async () => {
  const dir = await fixtures();
  const base = ["--run", join(dir, "a.run"), "--qrels", join(dir, "qrels.txt"), "-m", "P@5"];
  const perQuery = JSON.parse((await crux([...base, "--per-query", "--format", "json"])).out);
  assert.deepEqual(perQuery.perQuery, [
    { run: "runA", topicId: "q1", measure: "P@5", value: 0.4 },
    { run: "runA", topicId: "q2", measure: "P@5", value: 0 },
  ]);
  const complete = JSON.parse((await crux([...base, "--complete", "--format", "json"])).out);
  assert.equal(complete.topics, 3);
  assert.ok(Math.abs(complete.aggregate["P@5"] - 0.4 / 3) < 1e-15);
  const csv = await crux([...base, "--format", "csv"]);
  assert.equal(csv.out, "run,topic,measure,value\nrunA,all,P@5,0.2\n");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux eval with several runs prints one row per run and a footer", async () => {
  const dir = await fixtures();
  const args = [
    "--run",
    join(dir, "a.run"),
    "--run",
    join(dir, "b.run"),
    "--qrels",
    join(dir, "qrels.txt"),
    "-m",
    "P@1 RR",
  ];
  const table = await crux(args);
  assert.equal(table.code, 0, table.err);
  const lines = table.out.split("\n");
  assert.match(lines[0], /^run\s+P@1\s+RR\s+topics$/);
  assert.match(lines[1], /^runA\s+0\.0000\s+0\.1667\s+2$/);
  assert.match(lines[2], /^runB\s+0\.5000\s+0\.5000\s+2$/);
  assert.match(table.out, /# runA: 2 topics evaluated \(run ∩ judged\); averaged: 2/);
  const json = JSON.parse((await crux([...args, "--format", "json"])).out);
  assert.deepEqual(json.runs.map((r: { run: string; topics: number }) => [r.run, r.topics]), [[
    "runA",
    2,
  ], ["runB", 2]]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux eval computes alpha-nDCG, Cov and Den from CRUX files", async () => {
  const dir = await fixtures();
  const div = await crux([
    "--run",
    join(dir, "div.run"),
    "--div-qrels",
    join(dir, "div.qrels"),
    "-m",
    "alpha_nDCG@10",
    "--format",
    "json",
  ]);
  assert.ok(Math.abs(JSON.parse(div.out).aggregate["alpha_nDCG@10"] - 0.8637574337885664) < 1e-15);
  const r = await crux([
    "--run",
    join(dir, "crux.run"),
    "--judgments",
    join(dir, "judge.jsonl"),
    "--corpus",
    join(dir, "corpus.jsonl"),
    "--tokenizer",
    "whitespace",
    "-m",
    "Cov@2 Cov@oracle Den(w=1)@3 P@2",
    "--format",
    "json",
  ]);
  assert.equal(r.code, 0, r.err);
  // See crux_measures_test.ts for the arithmetic: Cov@2 1/2, Den(w=1)@3 0.9375; derived P@2 1/2.
  assert.deepEqual(JSON.parse(r.out).aggregate, {
    "Cov@2": 0.5,
    "Cov@oracle": 0.5,
    "Den(w=1)@3": 0.9375,
    "P@2": 0.5,
  });
  assert.match(r.err, /1 unparseable ratings \(-1\) counted as 0/);
  assert.match(r.err, /tokens counted with the whitespace tokenizer/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux eval rejects bad usage and bad input clearly", async () => {
  const dir = await fixtures();
  const qrels = ["--qrels", join(dir, "qrels.txt")];
  const noRun = await crux([...qrels, "-m", "P@5"]);
  assert.equal(noRun.code, 2);
  assert.match(noRun.err, /give at least one --run file/);
  const unknown = await crux(["--run", join(dir, "a.run"), ...qrels, "-m", "nDGC@10"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /Unknown measure "nDGC@10".*Did you mean nDCG/);
  const format = await crux([
    "--run",
    join(dir, "a.run"),
    ...qrels,
    "-m",
    "P@5",
    "--format",
    "xml",
  ]);
  assert.match(format.err, /--format must be one of table, json, csv, got "xml"/);
  const den = await crux([
    "--run",
    join(dir, "a.run"),
    "--judgments",
    join(dir, "judge.jsonl"),
    "-m",
    "Den@5",
  ]);
  assert.match(den.err, /Den needs --corpus/);
  const noJudgments = await crux(["--run", join(dir, "a.run"), "-m", "P@5"]);
  assert.match(noJudgments.err, /give judgments/);
  const bad = await crux(["--run", join(dir, "bad.run"), ...qrels, "-m", "P@5"]);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /bad\.run:2/);
  assert.equal(bad.out, "");
  const absent = await crux(["--run", join(dir, "nope.run"), ...qrels, "-m", "P@5"]);
  assert.equal(absent.code, 1);
  assert.match(
    absent.err,
    /Cannot read run ".*nope\.run": the file does not exist; check the path/,
  );
  const missing = await crux(["--run", join(dir, "a.run"), ...qrels, "-m", "alpha_nDCG@5"]);
  assert.match(missing.err, /needs diversity qrels or judgments/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux eval --help documents diversity qrels and defaults", async () => {
  const io = memoryIo();
  assert.equal(await main(["eval", "--help"], io, [evalCommand]), 0);
  assert.match(io.stdout(), /subtopic id goes in\s+the iteration column/);
  assert.match(io.stdout(), /CRUX numbers sub-questions from 1/);
  assert.match(io.stdout(), /--tau N .*\(default 3\)/);
  assert.match(io.stdout(), /--order ORDER .*default\)/);
});

Deno.test("crux eval reports the problems of every input file together, with file and line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/r.run`, "q1 Q0 d1 1 1.5 r\nq1 Q0 d2 x 1.2 r\nq1 Q0 d3 3\n");
    await Deno.writeTextFile(`${dir}/q.qrels`, "q1 0 d1 1\nq1 0 d2\n");
    const io = memoryIo();
    const code = await main(
      ["eval", "--run", `${dir}/r.run`, "--qrels", `${dir}/q.qrels`, "-m", "P@10"],
      io,
      [evalCommand],
    );
    assert.equal(code, 1);
    assert.equal(io.stdout(), "");
    const lines = io.stderr().trim().split("\n");
    assert.equal(lines.length, 3);
    assert.match(lines[0], /q\.qrels:2: expected 4 columns/);
    assert.match(lines[1], /r\.run:2: rank: expected an integer, found "x"/);
    assert.match(lines[2], /r\.run:3: expected 6 columns/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Writes `files` into a fresh temporary folder and returns a path maker. */
async function folder(files: Record<string, string>): Promise<(name: string) => string> {
  const dir = await Deno.makeTempDir({ prefix: "crux-eval-test-" });
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(join(dir, name), text);
  return (name) => join(dir, name);
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

Deno.test("crux eval averages qrels measures over qrels topics and warns when topic sets differ", async () => {
  const path = await folder({
    "r.run": "t1 Q0 t1:0#0 1 2 r\nt2 Q0 t2:0#0 1 2 r\n",
    "q.qrels": "t1 0 t1:0#0 3\n",
    "j.jsonl": jsonl([
      { id: "t1", docid: "t1:0#0", rating: [5] },
      { id: "t2", docid: "t2:0#0", rating: [5] },
    ]),
  });
  const args = ["--run", path("r.run"), "--qrels", path("q.qrels"), "--judgments", path("j.jsonl")];
  const r = await crux([...args, "-m", "P@1 Cov@1"]);
  assert.equal(r.code, 0, r.err);
  const [header, row] = r.out.split("\n");
  assert.match(header, /^run\s+P@1\s+Cov@1\s+topics$/);
  assert.match(row, /^r\s+1\.0000\s+1\.0000\s+2$/); // t2 is not a 0 in P@1
  // The table shows its notes once, as a footer on stdout; stderr stays empty.
  assert.equal(r.err, "");
  for (const text of [r.out]) {
    assert.match(text, /# r: 2 topics evaluated \(run ∩ judged\); averaged: 1$/m);
    assert.match(
      text,
      /# the qrels and the judgments cover different topics: 0 only in the qrels, 1 only in the judgments \(t2\)/,
    );
    assert.match(text, /1 topics left out of Cov@1: no oracle set P\* \(the topic has no qrels\)/);
  }
  assert.doesNotMatch(r.out, /no answerable sub-question/);
  const asJson = await crux([...args, "-m", "P@1", "--format", "json"]);
  assert.deepEqual(JSON.parse(asJson.out).aggregate, { "P@1": 1 });
  assert.match(asJson.err, /# r: 2 topics evaluated/); // JSON keeps its notes on stderr
});

Deno.test("crux eval fails when a run shares no topic with the judgments, and --rewrite maps ids", async () => {
  const ids = [1, 2, 3, 4];
  const path = await folder({
    "old.run": ids.map((i) => `duc04-testb-${i} Q0 duc04-testb-${i}:0#0 1 1 bm25\n`).join(""),
    "new.jsonl": jsonl(
      ids.map((i) => ({
        id: `duc04-test-${i}`,
        docid: `duc04-test-${i}:0#0`,
        rating: [i % 2 * 5],
      })),
    ),
    "old.qrels": ids.map((i) => `duc04-testb-${i} 0 duc04-testb-${i}:0#0 ${i % 2 * 3}\n`).join(""),
    "old.jsonl": jsonl(ids.map((i) => ({ id: `duc04-testb-${i}:0#0`, contents: "a b c" }))),
  });
  const base = ["--run", path("old.run"), "--judgments", path("new.jsonl"), "-m", "P@1"];
  const r = await crux([...base, "--format", "json"]);
  assert.equal(r.code, 1);
  assert.equal(r.out, "");
  assert.match(r.err, /Cannot evaluate run ".*old\.run": none of its 4 topics is in the judgments/);
  assert.match(r.err, /run topics: duc04-testb-1, duc04-testb-2, duc04-testb-3, \.\.\./);
  assert.match(r.err, /judged topics: duc04-test-1, duc04-test-2, duc04-test-3, \.\.\./);
  assert.match(r.err, /--rewrite duc04-testb-=duc04-test- would map 4 of them onto judged topics/);
  // The rewrite applies to topic ids and the passage ids that start with them, in every file.
  const fixed = await crux([...base, "--rewrite", "duc04-testb-=duc04-test-", "--format", "json"]);
  assert.equal(fixed.code, 0, fixed.err);
  assert.deepEqual(JSON.parse(fixed.out), { aggregate: { "P@1": 0.5 }, topics: 4 });
  const withQrels = await crux([
    ...base,
    "--qrels",
    path("old.qrels"),
    "--corpus",
    path("old.jsonl"),
    "--tokenizer",
    "whitespace",
    "-m",
    "Cov@1 Den@1",
    "--rewrite",
    "duc04-testb-=duc04-test-",
    "--format",
    "json",
  ]);
  assert.equal(withQrels.code, 0, withQrels.err);
  // Topics 1 and 3 retrieve their one required passage (P*): Cov 1, Den 1; 2 and 4 have no P*.
  assert.deepEqual(JSON.parse(withQrels.out).aggregate, { "P@1": 0.5, "Cov@1": 1, "Den@1": 1 });
  assert.doesNotMatch(withQrels.err, /different topics/);
  const bad = await crux([...base, "--rewrite", "duc04-testb-"]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--rewrite "duc04-testb-": expected FROM=TO/);
  const help = await crux(["--help"]);
  assert.match(help.out, /--rewrite FROM=TO/);
});

Deno.test("crux eval names the lines of a document listed twice in the qrels", async () => {
  const path = await folder({
    "r.run": "q1 Q0 a 1 1 r\n",
    "q.qrels": "q1 0 a 1\nq1 0 b 0\nq1 0 a 2\n",
  });
  const r = await crux(["--run", path("r.run"), "--qrels", path("q.qrels"), "-m", "P@1"]);
  assert.equal(r.code, 1);
  assert.equal(r.out, "");
  assert.equal(
    r.err,
    `crux eval: ${
      path("q.qrels")
    }:3: docid: document "a" is listed twice for topic "q1" (first on line 1)\n`,
  );
});

Deno.test("crux eval prints each measure once, however it is spelled", async () => {
  const dir = await fixtures();
  const r = await crux([
    "--run",
    join(dir, "a.run"),
    "--qrels",
    join(dir, "qrels.txt"),
    "-m",
    "map MAP P_2 P@2",
  ]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out.split("\n")[0], /^run\s+AP\s+P@2\s+topics$/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux eval: a tau written in a measure wins over --tau, and keys show the effective tau", async () => {
  const dir = await fixtures();
  // t:1#3 rates q1 3 (answered at tau 3, not at 4); A = {q1, q2} at both.
  await Deno.writeTextFile(join(dir, "one.run"), "t Q0 t:1#3 1 1 r\n");
  const base = ["--run", join(dir, "one.run"), "--judgments", join(dir, "judge.jsonl")];
  const json = async (args: string[]) => {
    const r = await crux([...base, ...args, "--format", "json", "--per-query"]);
    assert.equal(r.code, 0, r.err);
    return JSON.parse(r.out);
  };
  const tau4 = await json(["--tau", "4", "-m", "Cov(tau=3)@1 Cov@1 Cov(tau=4)@1"]);
  assert.deepEqual(tau4.aggregate, { "Cov(tau=3)@1": 0.5, "Cov(tau=4)@1": 0 });
  assert.deepEqual(
    tau4.perQuery.map((r: { measure: string; value: number }) => [r.measure, r.value]),
    [["Cov(tau=3)@1", 0.5], ["Cov(tau=4)@1", 0]],
  );
  // Without --tau (or with --tau 3) the explicit default is the short form, printed once.
  assert.deepEqual((await json(["-m", "Cov(tau=3)@1 Cov@1"])).aggregate, { "Cov@1": 0.5 });
  assert.deepEqual((await json(["--tau", "3", "-m", "Cov(tau=3)@1"])).aggregate, {
    "Cov@1": 0.5,
  });
  const table = await crux([...base, "--tau", "4", "-m", "Cov@1"]);
  assert.match(table.out.split("\n")[0], /^run\s+Cov\(tau=4\)@1\s+topics$/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux eval: a rel written in a measure wins over --rel, and keys show the effective rel", async () => {
  const dir = await fixtures();
  const base = ["--run", join(dir, "a.run"), "--qrels", join(dir, "qrels.txt")];
  const r = await crux([
    ...base,
    "--rel",
    "2",
    "-m",
    "RPrec(rel=1) Rprec P@5 nDCG@4",
    "--format",
    "json",
    "--per-query",
  ]);
  assert.equal(r.code, 0, r.err);
  const json = JSON.parse(r.out);
  // q1: R = 3 at rel 1 (d1 in the top 3), R = 1 at rel 2 (rank 1 is d3); q2 scores 0.
  assert.deepEqual(Object.keys(json.aggregate), [
    "RPrec(rel=1)",
    "RPrec(rel=2)",
    "P(rel=2)@5",
    "nDCG@4", // no rel parameter
  ]);
  assert.equal(json.aggregate["RPrec(rel=1)"], 1 / 6);
  assert.equal(json.aggregate["RPrec(rel=2)"], 0);
  assert.equal(json.aggregate["P(rel=2)@5"], 0.1); // only d1 (grade 2) in q1's top 5
  assert.ok(Math.abs(json.aggregate["nDCG@4"] - 0.4569494273838043 / 2) < 1e-15);
  assert.deepEqual(
    json.perQuery.filter((row: { topicId: string }) => row.topicId === "q1")
      .map((row: { measure: string }) => row.measure),
    ["RPrec(rel=1)", "RPrec(rel=2)", "P(rel=2)@5", "nDCG@4"],
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux eval --help explains that explicit parameters win and how keys show them", async () => {
  const io = memoryIo();
  assert.equal(await main(["eval", "--help"], io, [evalCommand]), 0);
  const help = io.stdout();
  assert.match(help, /A parameter written in a measure always wins over --tau and --rel/);
  assert.match(help, /with --tau 4, "Cov@10" is printed Cov\(tau=4\)@10/);
});

Deno.test("crux eval --tau takes an integer rating 0-5 and --rel an integer", async () => {
  const dir = await fixtures();
  const base = ["--run", join(dir, "a.run"), "--qrels", join(dir, "qrels.txt"), "-m", "P@5"];
  for (
    const [flag, value, message] of [
      ["--tau", "3.5", /--tau must be an integer rating from 0 to 5, got "3\.5"/],
      ["--tau", "6", /--tau must be an integer rating from 0 to 5, got "6"/],
      ["--tau=-1", undefined, /--tau must be an integer rating from 0 to 5, got "-1"/],
      ["--rel", "1.5", /--rel must be an integer grade, got "1\.5"/],
      ["--rel", "x", /--rel must be an integer grade, got "x"/],
    ] as const
  ) {
    const r = await crux([...base, flag, ...value === undefined ? [] : [value]]);
    assert.equal(r.code, 2, `${flag} ${value}`);
    assert.match(r.err, message);
  }
  assert.equal((await crux([...base, "--tau", "5", "--rel", "2"])).code, 0);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux eval's source files stay small", async () => {
  const here = new URL(".", import.meta.url);
  const files = [];
  for await (const e of Deno.readDir(here)) {
    if (/^(eval|_eval_\w+)\.ts$/.test(e.name)) files.push(e.name);
  }
  for (const name of files) {
    const lines = (await Deno.readTextFile(new URL(name, here))).split("\n").length;
    assert.ok(lines <= 250, `${name} has ${lines} lines`);
  }
});
