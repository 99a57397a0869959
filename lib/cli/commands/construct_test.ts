import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { constructCommand } from "./construct.ts";
import { tinyWorkspaceDir } from "../../../tests/pipeline/_tiny.ts";
import { startOpenAiServer } from "../../../tests/support/openai_server.ts";

const run = async (args: string[]) => {
  const io = memoryIo();
  const code = await main(["construct", ...args], io, [constructCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
};

Deno.test("crux construct: usage errors exit 2 with a pointer to --help", async () => {
  assert.equal((await run([])).code, 2);
  const unknown = await run(["chunks", "--workspace", "x"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /Unknown step "chunks": use one of passages, requests/);
  assert.match((await run(["passages"])).err, /construct passages needs --workspace DIR/);
  assert.match(
    (await run(["ratings", "--workspace", "x", "--backend", "gpt"])).err,
    /Unknown backend "gpt"/,
  );
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.out, /subtopic passage 0\|1/);
});

Deno.test("crux construct select --judgments writes CRUX qrels and diversity qrels without a workspace", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const judgments = join(dir, "judgments.jsonl");
    await Deno.writeTextFile(
      judgments,
      [
        { id: "t1", docid: "t1:0#0", rating: [5, 1] },
        { id: "t1", docid: "t1:0#1", rating: [4, 4] },
        { id: "t1", docid: "t1:report", rating: [5, 5] },
        { id: "t2", docid: "t2:0#0", rating: [2, 0] },
      ].map((j) => JSON.stringify(j)).join("\n") + "\n",
    );
    const r = await run([
      "select",
      "--judgments",
      judgments,
      "--out-qrels",
      join(dir, "pr.txt"),
      "--out-div-qrels",
      join(dir, "div.txt"),
    ]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /1 topics kept, 1 dropped, 1 required passages/);
    assert.match(r.err, /Topic "t2": nothing answerable at tau 3; dropped/);
    // t1:0#1 answers both questions -> kept (3); t1:0#0 is not below it on q1 (5 > 4) -> 2.
    assert.equal(await Deno.readTextFile(join(dir, "pr.txt")), "t1 0 t1:0#0 2\nt1 0 t1:0#1 3\n");
    assert.equal(
      await Deno.readTextFile(join(dir, "div.txt")),
      "t1 1 t1:0#0 1\nt1 1 t1:0#1 1\nt1 2 t1:0#0 0\nt1 2 t1:0#1 1\n",
    );
    const bad = await run(["select", "--judgments", judgments]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /needs --out-qrels FILE and --out-div-qrels FILE/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux construct all + stats offline on the tiny dataset", async () => {
  const dir = await tinyWorkspaceDir();
  try {
    const r = await run(["all", "--workspace", dir, "--n", "4"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^passages: 4 written for 2 topics, 0 topics skipped$/m);
    assert.match(r.out, /^questions: 8 written for 2 topics/m);
    assert.match(r.out, /^ratings: 24 written for 2 topics/m);
    assert.match(r.out, /^select: judge "lexical", tau 3, 0 topics dropped$/m);
    const table = await run(["stats", "--workspace", dir]);
    assert.match(table.out, /Dataset statistics/);
    assert.match(table.out, /tiny/);
    const stats = await run(["stats", "--workspace", dir, "--format", "json"]);
    const rows = JSON.parse(stats.out);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].dataset, "tiny");
    assert.equal(rows[0].topics, 2);
    assert.equal(rows[0].passagesPerTopic, 2);
    assert.equal(rows[0].subquestionsPerTopic, 4);
    const again = await run(["passages", "--workspace", dir]);
    assert.match(again.out, /passages: 0 written for 0 topics, 2 topics skipped/);
    const corpus = await run(["corpus", "--workspace", dir]);
    assert.match(corpus.out, /corpus: 4 passages and 0 distractors/);
    const lines = (await Deno.readTextFile(join(dir, "corpus.jsonl"))).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.deepEqual(lines.map((l) => l.id), [
      "tiny-1:0#0",
      "tiny-1:1#1",
      "tiny-2:0#0",
      "tiny-2:1#1",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux construct: model flags conflict with --backend offline and with the offline default", async () => {
  const conflict = await run([
    "ratings",
    "--workspace",
    "x",
    "--backend",
    "offline",
    "--model",
    "m",
  ]);
  assert.equal(conflict.code, 2);
  assert.match(
    conflict.err,
    /--backend offline conflicts with --model: the offline backend makes no model calls; drop those flags or use --backend openai/,
  );
  const tuning = await run(["passages", "--workspace", "x", "--max-retries", "2"]);
  assert.equal(tuning.code, 2);
  assert.match(
    tuning.err,
    /--max-retries only configures model calls, but the default backend is offline/,
  );
});

Deno.test("crux construct ratings --model --base-url rates with the model, not the lexical judge", async () => {
  await using server = startOpenAiServer({ chat: () => ({ content: "4" }) });
  const dir = await tinyWorkspaceDir();
  try {
    assert.equal((await run(["all", "--workspace", dir, "--n", "4"])).code, 0);
    assert.equal(server.requests, 0, "offline by default");
    const r = await run([
      "ratings",
      "--workspace",
      dir,
      "--model",
      "judge-m",
      "--base-url",
      server.url,
    ]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^ratings: 24 written for 2 topics/m);
    assert.equal(server.requests, 24, "one call per (passage or summary, sub-question)");
    const select = await run(["select", "--workspace", dir, "--judge", "judge-m", "--model", "x"]);
    assert.equal(select.code, 0, select.err);
    assert.match(select.err, /construct select makes no model calls; --model not used/);
    assert.match(select.out, /select: judge "judge-m", tau 3, 0 topics dropped/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
