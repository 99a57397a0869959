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

const RUN = "t1 Q0 a 1 3 Anserini\nt1 Q0 b 2 2 Anserini\nt1 Q0 c 3 1 Anserini\n";

Deno.test("crux eval --run FILE=NAME tells apart two runs with the same tag", async () => {
  const p = await dir({
    "x.run": RUN,
    "y.run": RUN.replace("a 1 3", "a 1 0.5"),
    "q": "t1 0 a 1\nt1 0 b 0\nt1 0 c 0\n",
  });
  const clash = await crux([
    "--run",
    p("x.run"),
    "--run",
    p("y.run"),
    "--qrels",
    p("q"),
    "-m",
    "RR",
  ]);
  assert.equal(clash.code, 1);
  assert.match(
    clash.err,
    /its name "Anserini" is already used by another --run file; name each run with --run FILE=NAME/,
  );
  const named = await crux([
    "--run",
    `${p("x.run")}=bm25`,
    "--run",
    `${p("y.run")}=dense`,
    "--qrels",
    p("q"),
    "-m",
    "RR",
    "--format",
    "json",
  ]);
  assert.equal(named.code, 0, named.err);
  const runs = JSON.parse(named.out).runs;
  assert.deepEqual(runs.map((r: { run: string }) => r.run), ["bm25", "dense"]);
  // y.run ranks a below b and c.
  assert.deepEqual(runs.map((r: { aggregate: { RR: number } }) => r.aggregate.RR), [1, 1 / 3]);
});

Deno.test("judged@k is a measure and a footer warning", async () => {
  const p = await dir({ "x.run": RUN, "q": "t1 0 a 1\nt1 0 c 0\n" });
  const r = await crux(["--run", p("x.run"), "--qrels", p("q"), "-m", "P@3 judged@2 judged@3"]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Anserini\s+0\.3333\s+0\.5000\s+0\.6667\s+1$/m);
  assert.match(r.out, /# Anserini: judged@3 0\.6667: 33\.3% of the top 3 has no judgment/);
  const full = await dir({ "x.run": RUN, "q": "t1 0 a 1\nt1 0 b 0\nt1 0 c 0\n" });
  assert.doesNotMatch(
    (await crux(["--run", full("x.run"), "--qrels", full("q"), "-m", "P@3"])).out,
    /judged@/,
  );
});

Deno.test("ratings aligned to a run are read with --aligned-to; mismatches name the topic", async () => {
  const p = await dir({
    "x.run": RUN,
    "aligned.json": JSON.stringify({ t1: [[5, 0], [1, 4], [0, 0]] }),
    "short.json": JSON.stringify({ t1: [[5, 0], [1, 4]] }),
  });
  const ok = await crux([
    "--run",
    p("x.run"),
    "--judgments",
    p("aligned.json"),
    "--aligned-to",
    p("x.run"),
    "-m",
    "Cov@1 Cov@2 judged@3",
    "--format",
    "json",
  ]);
  assert.equal(ok.code, 0, ok.err);
  // a answers sub-question 1 (rating 5), b sub-question 2 (rating 4): Cov@1 = 1/2, Cov@2 = 1.
  assert.deepEqual(JSON.parse(ok.out).aggregate, { "Cov@1": 0.5, "Cov@2": 1, "judged@3": 1 });
  const short = await crux([
    "--run",
    p("x.run"),
    "--judgments",
    p("short.json"),
    "--aligned-to",
    p("x.run"),
    "-m",
    "Cov@1",
  ]);
  assert.equal(short.code, 1);
  assert.match(
    short.err,
    /short\.json: t1: 2 rating lists, but the run ".*x\.run" ranks 3 passages/,
  );
  const asJsonl = await crux([
    "--run",
    p("x.run"),
    "--judgments",
    p("aligned.json"),
    "-m",
    "Cov@1",
  ]);
  assert.equal(asJsonl.code, 1);
  assert.match(
    asJsonl.err,
    /aligned\.json:1: this is one JSON document .* read it with --aligned-to RUN/,
  );
  // Spread over several lines, the document is told once, not line by line.
  const pretty = await dir({
    "aligned.json": JSON.stringify({ t1: [[5, 0], [1, 4], [0, 0]] }, null, 2),
  });
  const spread = await crux([
    "--run",
    p("x.run"),
    "--judgments",
    pretty("aligned.json"),
    "-m",
    "Cov@1",
  ]);
  assert.equal(spread.code, 1);
  assert.match(spread.err, /aligned\.json:1: this is one JSON document .* --aligned-to RUN/);
  assert.doesNotMatch(spread.err, /aligned\.json:2:/);
  const usage = await crux([
    "--run",
    p("x.run"),
    "--qrels",
    p("x.run"),
    "--aligned-to",
    p("x.run"),
    "-m",
    "P@1",
  ]);
  assert.equal(usage.code, 2);
});
