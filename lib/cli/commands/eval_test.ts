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
