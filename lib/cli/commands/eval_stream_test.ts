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
